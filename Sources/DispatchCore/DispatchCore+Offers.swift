// MARK: - Offers and waiting requests: D3–D7, D9, D11

extension DispatchCore {
    func openRequest(_ slot: Int32) -> OpenRequest {
        let r = requests[Int(slot)]
        return OpenRequest(slot: slot, id: r.id, origin: r.origin, originZone: r.originZone, requestedAt: r.requestedAt,
                           excluded: r.excluded)
    }

    /// Finds a taxi for a request now (or queues it for the batch window); with
    /// no taxi the customer waits out their patience or is told "no taxi" (D7).
    func dispatch(_ slot: Int32, effects: inout [Effect]) {
        requests[Int(slot)].status = .pending
        if let window = policy.batchWindow {
            wait(slot)
            scheduleBatchEpoch(window: window, effects: &effects)
            return
        }
        if let choice = policy.selectTaxi(for: openRequest(slot), in: view) {
            offer(slot, to: choice.taxi.slot, effects: &effects)
        } else {
            noTaxiNow(slot, effects: &effects)
        }
    }

    /// D7: reject at once, or let the customer wait until their deadline.
    func noTaxiNow(_ slot: Int32, effects: inout [Effect]) {
        let request = requests[Int(slot)]
        if now < request.patienceDeadline {
            if !request.waiting { effects.append(.waitingForTaxi(request.id, until: request.patienceDeadline)) }
            wait(slot)
        } else {
            finish(slot, as: request.isReservation ? .expired : .rejected)
            effects.append(request.isReservation
                ? .requestExpired(request.id, request.customer)
                : .noTaxiAvailable(request.id, request.customer))
        }
    }

    private func wait(_ slot: Int32) {
        guard !requests[Int(slot)].waiting else { return }
        requests[Int(slot)].waiting = true
        waiting.append(slot)
        waitingInZone[requests[Int(slot)].originZone.index].append(slot)
    }

    /// D3: offer the request to the taxi until the offer lapses (D4).
    func offer(_ slot: Int32, to taxi: Int32, effects: inout [Effect]) {
        countFIFOViolation(slot, chosen: taxi)
        if case .available(let zone) = drivers[Int(taxi)].status { drivers[Int(taxi)].offeredFromZone = zone.index }
        leaveQueue(taxi)
        let id = requests[Int(slot)].id
        drivers[Int(taxi)].status = .offered(id)
        requests[Int(slot)].status = .offered(drivers[Int(taxi)].id)
        requests[Int(slot)].offerGeneration &+= 1
        let expiry = now + rules.offerTimeout
        effects.append(.offer(drivers[Int(taxi)].id, id, expiresAt: expiry))
        effects.append(.wake(at: expiry, TimerID(kind: .offerTimeout, request: id,
                                                 generation: requests[Int(slot)].offerGeneration)))
        statistics.offersSent += 1
    }

    /// D15: the offer should go to the longest-waiting eligible taxi of the origin zone.
    private func countFIFOViolation(_ slot: Int32, chosen: Int32) {
        let request = openRequest(slot)
        if let first = view.firstInQueue(of: request.originZone, where: { view.isEligible($0, for: request) }),
           first.slot != chosen {
            statistics.fifoViolations += 1
        }
    }

    /// Takes back an open offer of the request; the driver keeps their queue place
    /// (or, having moved to another zone meanwhile, joins its tail).
    func withdrawOffer(of slot: Int32, effects: inout [Effect]) {
        guard case .offered(let driver) = requests[Int(slot)].status else { return }
        let taxi = knownSlot(of: driver)!
        if city.unsafeZoneIndex(drivers[Int(taxi)].position) == drivers[Int(taxi)].offeredFromZone {
            rejoinQueue(taxi, stamp: queues.stamp[Int(taxi)])
        } else {
            joinQueueTail(taxi)  // D2: moved zone meanwhile, so the tail of the new zone
        }
        effects.append(.offerWithdrawn(driver, requests[Int(slot)].id))
    }

    /// Offers waiting requests to taxis that have become available. A taxi that just turned
    /// available (`freed`) first serves the longest-waiting customer of its own zone — the zone
    /// rule of D3 seen from the taxi — and only then do the remaining available taxis go to
    /// the longest-waiting customers anywhere. Serving the city-wide oldest first sent every
    /// freed taxi across an overloaded city (pickups twice as long as rides) and lowered the
    /// very capacity the customers were waiting for.
    func serveWaitingRequests(freed: Int32? = nil, effects: inout [Effect]) {
        guard policy.batchWindow == nil else { return }
        if let freed, case .available(let zone) = drivers[Int(freed)].status {
            for slot in waitingInZone[zone.index][waitingInZoneHead[zone.index]...] where index.count > 0 {
                if offerIfWaiting(slot, effects: &effects) { break }
            }
            compactWaiting(in: zone.index)
        }
        for slot in waiting[waitingHead...] where index.count > 0 {
            offerIfWaiting(slot, effects: &effects)
        }
        compactWaiting()
    }

    /// Offers a still-waiting request to the taxi the policy picks; false when it no longer
    /// waits or no eligible taxi is available.
    @discardableResult
    private func offerIfWaiting(_ slot: Int32, effects: inout [Effect]) -> Bool {
        guard requests[Int(slot)].status == .pending,
              let choice = policy.selectTaxi(for: openRequest(slot), in: view) else { return false }
        requests[Int(slot)].waiting = false
        offer(slot, to: choice.taxi.slot, effects: &effects)
        return true
    }

    /// Drops a zone list's leading entries that no longer wait; rebuilds it when mostly stale.
    private func compactWaiting(in zone: Int) {
        var head = waitingInZoneHead[zone]
        while head < waitingInZone[zone].count, requests[Int(waitingInZone[zone][head])].status != .pending { head += 1 }
        if head > 64, head * 2 > waitingInZone[zone].count {
            waitingInZone[zone].removeFirst(head)
            head = 0
        }
        waitingInZoneHead[zone] = head
    }

    /// Drops entries at the front that no longer wait; rebuilds when mostly stale.
    func compactWaiting() {
        while waitingHead < waiting.count, requests[Int(waiting[waitingHead])].status != .pending {
            requests[Int(waiting[waitingHead])].waiting = false
            waitingHead += 1
        }
        if waitingHead > 1024, waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    // MARK: Timers

    func timerFired(_ timer: TimerID, effects: inout [Effect]) throws(DispatchError) {
        if timer.kind == .batchEpoch {
            if timer.generation == batchEpochGeneration, batchEpochDue != nil { runBatch(effects: &effects) }
            return
        }
        let slot = try slot(of: timer.request)
        let request = requests[Int(slot)]
        switch timer.kind {
        case .offerTimeout:  // D4
            guard case .offered(let driver) = request.status, timer.generation == request.offerGeneration else { return }
            let taxi = knownSlot(of: driver)!
            statistics.offersTimedOut += 1
            requests[Int(slot)].excluded.append(taxi)
            effects.append(.offerWithdrawn(driver, request.id))
            switch rules.onTimeout {
            case .requeue: joinQueueTail(taxi)
            case .disconnect: drivers[Int(taxi)].status = .unavailable
            }
            dispatch(slot, effects: &effects)
            if rules.onTimeout == .requeue { serveWaitingRequests(freed: taxi, effects: &effects) }
        case .maximumAllowedDelay:  // D9
            guard case .accepted(let driver) = request.status, timer.generation == request.assignmentGeneration else { return }
            let taxi = knownSlot(of: driver)!
            statistics.madReassignments += 1
            drivers[Int(taxi)].status = .unavailable
            effects.append(.assignmentRevoked(driver, request.id))
            requests[Int(slot)].excluded.append(taxi)
            // The customer was promised a taxi: they wait for the next one at least as long as the slack.
            let deadline = max(request.patienceDeadline, now + rules.madSlack)
            if deadline > request.patienceDeadline {
                requests[Int(slot)].patienceDeadline = deadline
                effects.append(.wake(at: deadline, TimerID(kind: .patience, request: request.id, generation: 0)))
            }
            dispatch(slot, effects: &effects)
        case .patience:  // D7: patience is how long a customer waits while no taxi is available.
            // With an offer out, a taxi is being asked: the customer waits for the answer, and if
            // the offer fails after the deadline they are told "no taxi" (`noTaxiNow`).
            guard request.status == .pending, now >= request.patienceDeadline else { return }
            finish(slot, as: .expired)
            effects.append(.requestExpired(request.id, request.customer))
        case .reservationAllocation:  // D11
            guard request.status == .scheduled else { return }
            dispatch(slot, effects: &effects)
        case .batchEpoch:
            return
        }
    }

    // MARK: Batch windows

    private func scheduleBatchEpoch(window: Double, effects: inout [Effect]) {
        guard batchEpochDue == nil else { return }
        let due = now + window
        batchEpochDue = due
        batchEpochGeneration &+= 1
        effects.append(.wake(at: due, TimerID(kind: .batchEpoch, request: RequestID(-1), generation: batchEpochGeneration)))
    }

    /// The end of a window: the policy matches every waiting request at once;
    /// the unmatched wait on or, past their patience, get "no taxi" (D7).
    private func runBatch(effects: inout [Effect]) {
        batchEpochDue = nil
        var open: [Int32] = []
        for slot in waiting[waitingHead...] where requests[Int(slot)].status == .pending {
            open.append(slot)
        }
        waiting.removeAll(keepingCapacity: true)
        waitingHead = 0
        for zone in waitingInZone.indices where !waitingInZone[zone].isEmpty {
            waitingInZone[zone].removeAll(keepingCapacity: true)
            waitingInZoneHead[zone] = 0
        }
        for slot in open { requests[Int(slot)].waiting = false }
        let choices = policy.assign(open.map(openRequest), in: view)
        var used = Set<Int32>()
        for (slot, choice) in zip(open, choices) {
            if let taxi = choice?.taxi.slot, index.contains(taxi), used.insert(taxi).inserted,
               !requests[Int(slot)].excluded.contains(taxi) {
                offer(slot, to: taxi, effects: &effects)
            } else {
                noTaxiNow(slot, effects: &effects)
            }
        }
        if waitingHead < waiting.count, let window = policy.batchWindow {
            scheduleBatchEpoch(window: window, effects: &effects)
        }
    }
}
