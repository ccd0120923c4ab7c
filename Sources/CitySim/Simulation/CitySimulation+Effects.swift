import DispatchCore

// MARK: - Applying the core's effects to the model

extension CitySimulation {
    /// Applies `effects[range]`, the effects of `command`.
    func apply(_ range: Range<Int>, of command: Command) {
        let now = events.now
        justScheduledSettler = nil
        // Patience timers are parked or scheduled once the offer after them is known. A command issued
        // while these effects are applied (a shift's end) applies its own above this mark.
        let patienceMark = deferredPatience.count
        defer { if deferredPatience.count > patienceMark { settleDeferredPatience(from: patienceMark) } }
        for i in range {
            switch effects[i] {
            case .offer(let driver, let request, let expiresAt):
                offerReaches(driver, request, expiresAt: expiresAt, now: now)
            case .offerWithdrawn(let driver, let request):
                let d = Int32(driver.rawValue)
                drivers[Int(d)].generation &+= 1  // a pending answer is void
                var timedOut = false
                if case .timerFired(let timer) = command, timer.kind == .offerTimeout { timedOut = true }
                noteOfferTakenBack(d, request, timedOut: timedOut)
                settle(d)
            case .customerNotified(let request, _, let driver, let eta), .reassigned(let request, _, let driver, let eta):
                startPickupDrive(request, by: driver, eta: eta)
            case .assignmentRevoked(let driver, let request):
                // D9: too late. The driver turns available where the drive has taken them (`revoked`).
                let d = Int32(driver.rawValue)
                finishBusy(d)
                if rides[request.rawValue].requestedAt >= warmup { madReassignments += 1 }
                rides.exclude(d, from: request.rawValue)
                revoked(d, pickup: rides[request.rawValue].origin)
            case .noTaxiAvailable(let request, _):
                rides[request.rawValue].outcome = .rejected
                rides.end(request.rawValue)
            case .requestExpired(let request, _):
                rides[request.rawValue].outcome = .expired
                rides.end(request.rawValue)
            case .requestCancelled(let request):
                rides[request.rawValue].outcome = .cancelled
                rides.end(request.rawValue)
            case .fareCharged(let request, let driver, let amount):
                rides[request.rawValue].fare += amount
                if now >= warmup { drivers[driver.rawValue].earnings += amount }
            case .rideCompleted(let request, _):
                rides[request.rawValue].outcome = .served
                rides[request.rawValue].dropoffAt = now
                rides.end(request.rawValue)
            case .wake(let time, let timer) where timer.kind == .patience && parksTimers:
                deferredPatience.append((timer, time))  // the offer, if any, comes after it in the list
            case .wake(let time, let timer):
                wake(timer, at: time)
            case .waitingForTaxi, .reservationConfirmed, .reportRecorded, .queueStatus, .arrivalEstimate:
                break
            }
        }
    }

    /// D3: an offer reaches its driver, who leaves their queue (D2) and stops any drift; unless silent (D4
    /// will fire), the driver answers after their response time, if that is before the offer expires.
    /// Out of line: inlined in `apply`, its loads were set up for every command's effects, most of which
    /// (three in four of the grid city's) are a request's "no taxi" alone.
    @inline(never)
    private func offerReaches(_ driver: DriverID, _ request: RequestID, expiresAt: Double, now: Double) {
        justScheduledSettler = nil
        rides[request.rawValue].offers += 1
        let d = Int32(driver.rawValue)
        let ride = rides[request.rawValue]
        recordOffer(to: d, zone: ride.originZone, excluded: rides.excludedTaxis(request.rawValue),
                    counts: ride.requestedAt >= warmup)
        drivers[Int(d)].offeredFrom = drivers[Int(d)].queuePlace
        recordLeavesQueue(d, dispatched: true)
        noteLeftQueue(d, byOffer: true)
        drivers[Int(d)].generation &+= 1  // a drift in progress is void: the taxi stops where it is
        drivers[Int(d)].pendingPosition = nil
        stopDrift(d)
        let behaviour = scenario.drivers
        guard !behaviourRandom.bernoulli(behaviour.neverAnswerShare) else { return }  // silent: D4 will fire
        let delay = behaviourRandom.duration(behaviour.responseTime)
        guard now + delay < expiresAt else { return }
        let accepts = behaviourRandom.bernoulli(behaviour.acceptProbability)
        schedule(.answer(driver: d, request: EventRequest(request), generation: drivers[Int(d)].generation, accepts: accepts),
                 at: now + delay)
        justScheduledSettler = PendingSettler(request: request.rawValue, driver: d, at: now + delay, settler: .answer,
                                              generation: drivers[Int(d)].generation)
    }

    /// An offer was taken back. D4: a silent taxi may no longer get this request and, under
    /// `on_timeout: requeue`, joins the tail of its zone's queue. Otherwise (the customer cancelled or
    /// gave up) the taxi takes back its place in the queue it was offered from.
    private func noteOfferTakenBack(_ d: Int32, _ request: RequestID, timedOut: Bool) {
        if timedOut {
            rides[request.rawValue].timeouts += 1
            rides.exclude(d, from: request.rawValue)
            if scenario.dispatch.onTimeout == .requeue, let here = core.position(of: drivers[Int(d)].id) {
                recordJoinsTail(d, zone: zoneIndex(of: here))
            }
        } else if let zone = drivers[Int(d)].offeredFrom.queuedZone {
            recordRejoins(d, zone: zone, stamp: drivers[Int(d)].offeredFrom.stamp)
        }
    }

    /// D8: the accepting driver drives to the pickup (a reservation's customer comes at the meeting time).
    private func startPickupDrive(_ request: RequestID, by driver: DriverID, eta: Double) {
        assert(core.status(of: request) == .accepted(driver), "\(request) notified as accepted by \(driver)")
        let d = Int32(driver.rawValue)
        let now = events.now
        rides[request.rawValue].acceptedAt = now
        rides[request.rawValue].driver = driver
        drivers[Int(d)].busySince = now
        // The actual drive: the estimate times the request's own noise (D9 can fire).
        let instant = scenario.validation.enabled && scenario.validation.pickup == .instant
        let arrival = now + (instant ? 0 : eta * rides.draw(request.rawValue).pickupNoise)
        drivers[Int(d)].expectedArrival = arrival
        // In a road city the drive is a leg along the roads from where the core has the taxi (where its ETA
        // was computed from) to the pickup, stretched by the request's noise so it ends at `arrival`.
        if city.roads != nil, let from = core.position(of: driver) {
            startLeg(d, .toPickup, from: from, to: rides[request.rawValue].origin, duration: arrival - now)
        }
        let pickup = max(arrival, rides[request.rawValue].meetingTime ?? arrival)
        schedule(.reachesPickup(driver: d, request: EventRequest(request), generation: drivers[Int(d)].generation), at: pickup)
        justScheduledSettler = PendingSettler(request: request.rawValue, driver: d, at: pickup, settler: .pickup,
                                              generation: drivers[Int(d)].generation)
    }
}
