// MARK: - Timers: D4 offer timeouts, D7 patience, D9 MAD, D11 allocation

extension DispatchCore {
    /// Acts on a timer the core asked for. The due time of every timer is on the record, so a
    /// timer of an earlier offer, assignment or deadline changes nothing, and one that fires
    /// before its due time changes nothing but asks again for that time (a host's real timers
    /// may fire early; the core must not act on a minute that has not passed).
    @usableFromInline func timerFired(_ timer: TimerID, effects: inout [Effect]) throws(DispatchError) {
        if timer.kind == .batchEpoch {
            guard timerCanAct(timer), let due = batchEpochDue else { return }
            if now < due { effects.append(.wake(at: due, timer)) } else { runBatch(effects: &effects) }
            return
        }
        let slot = try slot(of: timer.request)
        // Stale (an earlier offer, assignment or deadline; an ended request): the one test `timerCanAct` uses.
        guard canAct(timer, on: slot) else { return }
        // Fields read in place: most timers are stale, and copying the whole record to check a
        // generation was the larger part of the loop's memmove (perf, city-scale).
        let s = Int(slot)
        switch (timer.kind, requests[s].status) {
        case (.offerTimeout, .offered(let driver)):  // D4
            let expiresAt = requests[s].offerExpiresAt
            guard now >= expiresAt else { return effects.append(.wake(at: expiresAt, timer)) }
            offerLapsed(slot, driver: driver, effects: &effects)
        case (.maximumAllowedDelay, .accepted(let driver)):  // D9
            let deadline = requests[s].pickupDeadline
            guard now >= deadline else { return effects.append(.wake(at: deadline, timer)) }
            revokeLateAssignment(slot, driver: driver, effects: &effects)
        case (.patience, .pending), (.patience, .offered):  // D7
            let deadline = requests[s].patienceDeadline
            guard now >= deadline else { return effects.append(.wake(at: deadline, timer)) }
            patienceRanOut(slot, effects: &effects)
        case (.reservationAllocation, _):  // D11 (`canAct`: still scheduled, with a meeting time)
            let due = requests[s].meetingTime! - rules.allocationLead
            guard now >= due else { return effects.append(.wake(at: due, timer)) }
            dispatch(slot, effects: &effects)
        default:
            return  // a reservation's patience before its allocation: nothing to do yet
        }
    }

    /// Whether `timer` may still act, now or when it fires later: false once what it guards has
    /// moved on for good (the offer was answered, the customer was picked up, the request ended,
    /// a newer timer of the same kind replaced it). False stays false, and `timerFired` does
    /// nothing with such a timer, so a host may drop it instead of firing it (the simulator does:
    /// most of its timers are settled before they are due). Pure.
    public func timerCanAct(_ timer: TimerID) -> Bool {
        if timer.kind == .batchEpoch { return timer.generation == batchEpochGeneration && batchEpochDue != nil }
        guard let slot = try? slot(of: timer.request) else { return false }
        return canAct(timer, on: slot)
    }

    /// `timerCanAct` for a request's timer, given the request's slot (negative once it has ended).
    private func canAct(_ timer: TimerID, on slot: Int32) -> Bool {
        guard slot >= 0 else { return false }  // the request has ended: every timer of it is stale
        let s = Int(slot)
        switch (timer.kind, requests[s].status) {
        case (.offerTimeout, .offered): return timer.generation == requests[s].offerGeneration
        case (.maximumAllowedDelay, .accepted): return timer.generation == requests[s].assignmentGeneration
        // An acceptance ends patience; a D9 revocation arms a new timer (a new generation).
        case (.patience, .scheduled), (.patience, .pending), (.patience, .offered):
            return timer.generation == requests[s].patienceGeneration
        case (.reservationAllocation, .scheduled): return requests[s].meetingTime != nil
        default: return false
        }
    }

    /// D4: the silent taxi goes to the tail of its queue (or is taken as disconnected) and the
    /// request passes on.
    private func offerLapsed(_ slot: Int32, driver: DriverID, effects: inout [Effect]) {
        let taxi = knownSlot(of: driver)!
        statistics.offersTimedOut += 1
        requests[Int(slot)].excluded.append(taxi)
        effects.append(.offerWithdrawn(driver, requests[Int(slot)].id))
        switch rules.onTimeout {
        case .requeue: joinQueueTail(taxi)
        case .disconnect: drivers[Int(taxi)].status = .unavailable
        }
        passOn(slot, effects: &effects)
        if rules.onTimeout == .requeue { serveWaitingRequests(freed: taxi, effects: &effects) }
    }

    /// D9: the late taxi loses the ride and the request passes to the next taxi.
    private func revokeLateAssignment(_ slot: Int32, driver: DriverID, effects: inout [Effect]) {
        let taxi = knownSlot(of: driver)!
        let request = requests[Int(slot)]
        statistics.madReassignments += 1
        drivers[Int(taxi)].status = .unavailable
        effects.append(.assignmentRevoked(driver, request.id))
        requests[Int(slot)].excluded.append(taxi)
        // The customer was promised a taxi: they wait for the next one at least as long as the slack.
        // Patience ended with the acceptance (its timer cannot act while accepted: `timerCanAct`). It is
        // armed again here with a new generation, even for the same deadline, so that the old timer
        // stays unable to act and a host may have dropped it.
        let deadline = max(request.patienceDeadline, now + rules.madSlack)
        requests[Int(slot)].patienceDeadline = deadline
        requests[Int(slot)].patienceGeneration &+= 1
        if deadline.isFinite {  // an infinitely patient customer has no patience timer
            effects.append(.wake(at: deadline, TimerID(kind: .patience, request: request.id,
                                                       generation: requests[Int(slot)].patienceGeneration)))
        }
        dispatch(slot, effects: &effects)
    }

    /// D7: patience is how long a customer waits for an acceptance. With an offer out the
    /// customer waits for its answer, but if that offer fails they have gone (`passOn`). A
    /// customer waiting in a batch window gets a last chance first: the nearest eligible free
    /// taxi, if any, rather than leaving unconsidered before the window closes.
    private func patienceRanOut(_ slot: Int32, effects: inout [Effect]) {
        requests[Int(slot)].patienceRanOut = true
        guard requests[Int(slot)].status == .pending else { return }
        if policy.batchWindow != nil, index.count > 0,
           let choice = policy.selectTaxi(for: openRequest(slot), in: view) {
            requests[Int(slot)].waiting = false
            offer(slot, to: choice.taxi.slot, effects: &effects)
        } else {
            expire(slot, effects: &effects)
        }
    }
}
