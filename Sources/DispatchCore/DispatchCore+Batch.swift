// MARK: - Batch windows (the `batch` policy)

extension DispatchCore {
    func scheduleBatchEpoch(window: Double, effects: inout [Effect]) {
        guard batchEpochDue == nil else { return }
        let due = now + window
        batchEpochDue = due
        batchEpochGeneration &+= 1
        effects.append(.wake(at: due, TimerID(kind: .batchEpoch, request: RequestID(-1), generation: batchEpochGeneration)))
    }

    /// The end of a window: the policy matches every waiting request at once. The matching
    /// looks at each request's nearest taxis only, so it can leave a request unmatched while
    /// farther eligible taxis are free: those requests then get the nearest eligible taxi still
    /// free, oldest request first. Only requests with no eligible taxi left wait on or, past
    /// their patience, get "no taxi" (D7).
    func runBatch(effects: inout [Effect]) {
        batchEpochDue = nil
        var open: [Int32] = []
        // A request can be listed twice (offered at its patience deadline, then waiting again):
        // the flag, cleared at its first entry, takes it once.
        for slot in waiting[waitingHead...] where requests[Int(slot)].waiting {
            requests[Int(slot)].waiting = false
            if requests[Int(slot)].status == .pending { open.append(slot) }
        }
        waiting.removeAll(keepingCapacity: true)
        waitingHead = 0
        for zone in waitingInZone.indices where !waitingInZone[zone].isEmpty {
            waitingInZone[zone].removeAll(keepingCapacity: true)
            waitingInZoneHead[zone] = 0
        }
        let choices = policy.assign(open.map(openRequest), in: view)
        var unmatched: [Int32] = []
        for (slot, choice) in zip(open, choices) {
            // An offer takes the taxi out of the index, so a taxi chosen twice is offered once.
            if let taxi = choice?.taxi.slot, index.contains(taxi), !requests[Int(slot)].excluded.contains(taxi) {
                offer(slot, to: taxi, effects: &effects)
            } else {
                unmatched.append(slot)
            }
        }
        for slot in unmatched {
            if index.count > 0, let choice = policy.selectTaxi(for: openRequest(slot), in: view) {
                offer(slot, to: choice.taxi.slot, effects: &effects)
            } else {
                noTaxiNow(slot, effects: &effects)
            }
        }
        if waitingHead < waiting.count, let window = policy.batchWindow {
            scheduleBatchEpoch(window: window, effects: &effects)
        }
    }
}
