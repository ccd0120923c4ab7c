// MARK: - The simulator's own record of the zone queues

extension CitySimulation {
    /// D2, D4/D5 requeue: the taxi joins the tail of `zone`'s queue now. Noted in both records the
    /// simulator keeps of the queues: their order (`QueueOrderCheck`) and the drivers' stints (`QueueStints`).
    func recordJoinsTail(_ d: Int32, zone: Int) {
        queueOrder.joinTail(d, zone: zone)
        stintJoins(d, zone: zone)
    }

    /// The taxi takes back the place it had in `zone`'s queue (an offer to it was withdrawn).
    func recordRejoins(_ d: Int32, zone: Int, stamp: Int) {
        queueOrder.rejoin(d, zone: zone, stamp: stamp)
        stintJoins(d, zone: zone)
    }

    /// The taxi leaves its queue now: `dispatched` when an offer takes it out, otherwise (shift end) censored.
    func recordLeavesQueue(_ d: Int32, dispatched: Bool) {
        queueOrder.leave(d)
        if stintsAside != nil {
            if stintNotes.isFull { stintsAside?.send(&stintNotes) }
            stintNotes.leave(d, at: events.now, dispatched: dispatched)
        } else {
            queueStints.leave(d, at: events.now, dispatched: dispatched)
        }
    }

    private func stintJoins(_ d: Int32, zone: Int) {
        if stintsAside != nil {
            if stintNotes.isFull { stintsAside?.send(&stintNotes) }
            stintNotes.join(d, zone: zone, at: events.now)
        } else {
            queueStints.join(d, zone: zone, at: events.now)
        }
    }
}
