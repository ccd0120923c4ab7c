import DispatchCore

// MARK: - The model's events

extension CitySimulation {
    func handle(_ event: SimEvent) throws {
        switch event {
        case .arrival: customerArrives()
        case .plannerLeg: bookPlannerLeg()
        case .shiftStarts(let d): shiftStarts(d)
        case .shiftEnds(let d): shiftEnds(d)
        case .answer(let d, let request, let accepts, let generation):
            guard drivers[Int(d)].generation == generation else { return }
            answer(d, request, accepts: accepts)
        case .reachesPickup(let d, let request, let generation):
            guard drivers[Int(d)].generation == generation else { return }
            reachPickup(d, request)
        case .reachesDestination(let d, let request): reachDestination(d, request)
        case .turnsAvailable(let d, let generation):
            guard drivers[Int(d)].generation == generation else { return }
            turnAvailable(d)
        case .driftArrives(let d, let generation):
            guard drivers[Int(d)].generation == generation, let target = drivers[Int(d)].pendingPosition else { return }
            drivers[Int(d)].pendingPosition = nil
            command(.updatePosition(drivers[Int(d)].id, target))
        case .customerCancels(let request):
            command(.cancel(request, by: rides[request.rawValue].customer))  // refused once accepted (D10)
        case .coreTimer(let timer):
            mustCommand(.timerFired(timer))
        case .hourTick(let hour):
            sampleHour()
            schedule(.hourTick(hour: hour + 1), at: Double(hour + 1) * 3600, priority: 1)
        }
    }

    // MARK: Customers

    /// A customer appears. Every random draw for the customer is made first, in
    /// a fixed order and from demand streams only, so the same seed gives the
    /// same customers whatever the fleet or policy (common random numbers).
    private func customerArrives() {
        let now = events.now
        if let next = demand.nextArrival(after: now, horizon: horizon, arrivalsRandom) { schedule(.arrival, at: next) }
        let draw = CustomerDraw(at: now, scenario: scenario, city: city, arrivals: arrivalsRandom,
                                places: placesRandom, patienceRandom: patienceRandom)
        let (origin, destination, drawnCustomer, reserves) = (draw.origin, draw.destination, draw.drawnCustomer, draw.reserves)
        let meeting = draw.meetingTime ?? 0
        let patience = draw.patience

        let customer = CustomerID(drawnCustomer >= 0 ? drawnCustomer : nextCustomer)
        let id = RequestID(rides.count)
        let zone = (try? city.geometry.zone(of: origin))?.index ?? 0
        rides.append(RideRecord(id: id, customer: customer, isReservation: reserves, requestedAt: now,
                                meetingTime: reserves ? meeting : nil, origin: origin, destination: destination,
                                originZone: zone))
        let accepted = reserves
            ? command(.reserveRide(id, customer: customer, origin: origin, destination: destination, meetingTime: meeting))
            : command(.requestRide(id, customer: customer, origin: origin, destination: destination, patience: patience))
        guard accepted else {
            rides.removeLast()  // D12: this customer already has an open request; they do not ask twice
            return
        }
        if drawnCustomer < 0 { nextCustomer += 1 }
        if let cancelAt = draw.cancelTime(requestedAt: now, cutoffSeconds: scenario.dispatch.reservationCancelCutoffSeconds) {
            schedule(.customerCancels(request: id), at: cancelAt)
        }
    }

    // MARK: Drivers answering and driving

    private func answer(_ d: Int32, _ request: RequestID, accepts: Bool) {
        let id = drivers[Int(d)].id
        if accepts {
            mustCommand(.accept(id, request))
        } else {
            mustCommand(.decline(id, request))
            rides[request.rawValue].declines += 1
        }
        settle(d)
    }

    private func reachPickup(_ d: Int32, _ request: RequestID) {
        mustCommand(.pickedUp(drivers[Int(d)].id, request))
        rides[request.rawValue].pickupAt = events.now
        let ride = rides[request.rawValue]
        let duration: Double
        if scenario.validation.enabled {
            duration = ridesRandom.duration(scenario.validation.serviceTime)
        } else {
            duration = drive(city.travel.travelTime(from: ride.origin, to: ride.destination, departingAt: events.now))
        }
        schedule(.reachesDestination(driver: d, request: request), at: events.now + duration)
    }

    private func reachDestination(_ d: Int32, _ request: RequestID) {
        mustCommand(.droppedOff(drivers[Int(d)].id, request, at: rides[request.rawValue].destination))
        drivers[Int(d)].rides += 1
        finishBusy(d)
        becomeFree(d)
    }

    /// An actual drive time around the estimate (lognormal noise, D9 can fire).
    func drive(_ estimate: Double) -> Double {
        let cv = scenario.drivers.travelTimeCV
        return cv > 0 ? estimate * ridesRandom.lognormal(mean: 1, cv: cv) : estimate
    }
}
