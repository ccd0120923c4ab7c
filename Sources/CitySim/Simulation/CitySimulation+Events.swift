import DispatchCore

// MARK: - The model's events

extension CitySimulation {
    func handle(_ event: SimEvent) throws {
        switch event {
        case .arrival: try customerArrives()
        case .tracedArrival: tracedCustomerArrives()
        case .plannerLeg: bookPlannerLeg()
        case .shiftStarts(let d): shiftStarts(d)
        case .shiftEnds(let d): shiftEnds(d)
        case .answer(let d, let request, let generation, let accepts):
            if drivers[Int(d)].generation == generation { answer(d, request.id, accepts: accepts) }
            settleParked(d, by: .answer, generation: generation)  // acted on or void: release what waits behind it
        case .reachesPickup(let d, let request, let generation):
            if drivers[Int(d)].generation == generation { reachPickup(d, request.id) }
            settleParked(d, by: .pickup, generation: generation)
        case .reachesDestination(let d, let request): reachDestination(d, request.id)
        case .turnsAvailable(let d, let generation):
            guard drivers[Int(d)].generation == generation else { return }
            turnAvailable(d)
        case .driftArrives(let d, let generation):
            guard drivers[Int(d)].generation == generation else { return }
            driftStep(d)
        case .customerCancels(let request):
            command(.cancel(request.id, by: rides[Int(request.raw)].customer))  // refused once accepted (D10)
        case .coreTimer(let timer):
            mustCommand(.timerFired(timer.timer))
        case .hourTick(let hour):
            sampleHour()
            schedule(.hourTick(hour: hour + 1), at: Double(hour + 1) * 3600, priority: 1)
        }
    }

    // MARK: Customers

    /// A customer appears. Every random draw for the customer is made first, in
    /// a fixed order and from demand streams only, so the same seed gives the
    /// same customers whatever the fleet or policy (common random numbers);
    /// the request's ride times are drawn now too (`RideDraw`).
    private func customerArrives() throws {
        if let customerFeedInLoop {
            // Valid until the feed's next `next()`: nothing below asks for another customer.
            let customer = try customerFeedInLoop._withUnsafeGuaranteedRef { feed throws(TripLengthError) in try feed.next() }
            if let next = customer.pointee.nextArrival { schedule(.arrival, at: next, arrival: true) }
            admit(customer.pointee.draw, customer.pointee.ride, originZone: customer.pointee.originZone)
            return
        }
        let now = events.now
        // The customer first, then the gap to the next one: the order the load generator draws in.
        let draw = try CustomerDraw(at: now, customerParameters, city: city, arrivals: arrivalsRandom,
                                    places: placesRandom, reservations: reservationsRandom, patienceRandom: patienceRandom)
        if let next = demand.nextArrival(after: now, horizon: horizon, arrivalsRandom) { schedule(.arrival, at: next, arrival: true) }
        admit(draw, RideDraw(rideParameters, ridesRandom), originZone: city.zoneIndex(of: draw.origin))
    }

    /// A `CustomerFeed` drawing this run's customers from the one arriving at `firstArrival` on, when the
    /// run allows it: synthetic demand on the grid, no planner users (their legs draw from the ride-times
    /// stream between customers) and `usesHelperThreads`.
    func makeCustomerFeed(firstArrival: Double) throws -> CustomerFeed? {
        guard usesHelperThreads, realDemand == nil, plannerDemand == nil, city.roads == nil else { return nil }
        let sources = CustomerFeed.Sources(
            city: try CityModel(scenario: scenario), demand: demand, horizon: horizon, customers: customerParameters,
            rides: rideParameters, arrivals: arrivalsRandom, places: placesRandom, reservations: reservationsRandom,
            patience: patienceRandom, rideTimes: ridesRandom)
        return CustomerFeed(sources, firstArrival: firstArrival)
    }

    /// The next customer of a trip replay or an OD matrix appears: their places are the trip's, then the
    /// same draws as a synthetic customer's (customer, reservation, patience, ride times).
    private func tracedCustomerArrives() {
        guard let trip = nextTrip, let realDemand else { return }
        let draw = CustomerDraw(at: events.now, origin: trip.origin, destination: trip.destination, customerParameters,
                                arrivals: arrivalsRandom, reservations: reservationsRandom, patienceRandom: patienceRandom)
        nextTrip = realDemand.next(after: events.now, arrivals: arrivalsRandom, places: placesRandom)
        if let nextTrip { schedule(.tracedArrival, at: nextTrip.time, arrival: true) }
        admit(draw, RideDraw(rideParameters, ridesRandom), originZone: city.zoneIndex(of: draw.origin))
    }

    /// Makes the customer's request (or reservation) and records it with its ride times (`RideDraw`, drawn
    /// for every customer, whether the core takes the request or not) and its origin's zone.
    private func admit(_ draw: CustomerDraw, _ rideDraw: RideDraw, originZone zone: Int) {
        let now = events.now
        let (origin, destination, drawnCustomer, reserves) = (draw.origin, draw.destination, draw.drawnCustomer, draw.reserves)
        let meeting = draw.meetingTime ?? 0
        let patience = draw.patience

        let customer = CustomerID(drawnCustomer >= 0 ? drawnCustomer : nextCustomer)
        let id = RequestID(rides.count)
        rides.appendUnopened(RideRecord(customer: customer, requestedAt: now, meetingTime: reserves ? meeting : nil,
                                        origin: origin, destination: destination, originZone: zone))
        let refusal = reserves
            ? attempt(.reserveRide(id, customer: customer, origin: origin, destination: destination, meetingTime: meeting))
            : attempt(.requestRide(id, customer: customer, origin: origin, destination: destination, patience: patience))
        if let refusal {
            rides.removeLast()  // the core refused the request: counted, not recorded as a ride
            countRefusal(refusal)
            return
        }
        // A request its command did not end (no "no taxi") gets its ride draws kept until it ends.
        if rides[id.rawValue].outcome == .pending { rides.open(id.rawValue, draw: rideDraw) }
        if drawnCustomer < 0 { nextCustomer += 1 }
        if let cancelAt = draw.cancelTime(requestedAt: now, cutoffSeconds: scenario.dispatch.reservationCancelCutoffSeconds) {
            schedule(.customerCancels(request: EventRequest(id)), at: cancelAt)
        }
    }

    /// Counts a request the core refused, by reason, when made after the warm-up: D12 (the customer
    /// already has an open immediate request; they do not ask twice) or D11 (the lead is too short).
    func countRefusal(_ refusal: DispatchError) {
        guard events.now >= warmup else { return }
        switch refusal {
        case .customerHasOpenRequest: refusedOpenRequest += 1
        case .reservationTooSoon: refusedTooSoon += 1
        default: preconditionFailure("the dispatch core refused a simulated request: \(refusal)")
        }
    }

    // MARK: Drivers answering and driving

    private func answer(_ d: Int32, _ request: RequestID, accepts: Bool) {
        let id = drivers[Int(d)].id
        if accepts {
            rides.prefetchDraw(request.rawValue)  // the pickup drive reads it once the core has taken the answer
            mustCommand(.accept(id, request))
        } else {
            rides.exclude(d, from: request.rawValue)  // D5: not offered this request again
            if scenario.dispatch.onDecline == .requeue, let here = core.position(of: id) {
                recordJoinsTail(d, zone: zoneIndex(of: here))
            }
            mustCommand(.decline(id, request))
            rides[request.rawValue].declines += 1
        }
        settle(d)
    }

    private func reachPickup(_ d: Int32, _ request: RequestID) {
        rides.prefetchDraw(request.rawValue)  // loaded while the core handles the pickup
        mustCommand(.pickedUp(drivers[Int(d)].id, request))
        rides[request.rawValue].pickupAt = events.now
        let ride = rides[request.rawValue]
        let draw = rides.draw(request.rawValue)
        let duration: Double
        if scenario.validation.enabled {
            duration = draw.serviceTime
        } else {
            duration = draw.rideNoise * city.travel.travelTime(from: ride.origin, to: ride.destination, departingAt: events.now)
        }
        startLeg(d, .ride, from: ride.origin, to: ride.destination, duration: duration)  // replaces the pickup drive
        schedule(.reachesDestination(driver: d, request: EventRequest(request)), at: events.now + duration)
    }

    private func reachDestination(_ d: Int32, _ request: RequestID) {
        mustCommand(.droppedOff(drivers[Int(d)].id, request, at: rides[request.rawValue].destination))
        if events.now >= warmup { drivers[Int(d)].rides += 1 }
        endLeg(d)
        finishBusy(d)
        becomeFree(d)
    }
}
