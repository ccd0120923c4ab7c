// MARK: - The simulator's own record of the zone queues

extension CitySimulation {
    /// D2, D4/D5 requeue: the taxi joins the tail of `zone`'s queue now. Noted in both records the
    /// simulator keeps of the queues: their order (`QueueOrderCheck`) and the drivers' stints (`QueueStints`).
    func recordJoinsTail(_ d: Int32, zone: Int) {
        drivers[Int(d)].queuePlace.joinTail(zone, stamps: &queueStamps)
        if queueRecordsAside != nil {
            makeRoomForQueueNote()
            queueNotes.join(d, zone: zone, at: events.now)
        } else {
            queueOrder.joinTail(d, zone: zone)
            queueStints.join(d, zone: zone, at: events.now)
        }
    }

    /// The taxi takes back the place it had in `zone`'s queue (an offer to it was withdrawn).
    func recordRejoins(_ d: Int32, zone: Int, stamp: Int) {
        drivers[Int(d)].queuePlace.rejoin(zone, stamp: stamp)
        if queueRecordsAside != nil {
            makeRoomForQueueNote()
            queueNotes.rejoin(d, zone: zone, stamp: stamp, at: events.now)
        } else {
            queueOrder.rejoin(d, zone: zone, stamp: stamp)
            queueStints.join(d, zone: zone, at: events.now)
        }
    }

    /// The taxi leaves its queue now: `dispatched` when an offer takes it out, otherwise (shift end) censored.
    func recordLeavesQueue(_ d: Int32, dispatched: Bool) {
        drivers[Int(d)].queuePlace.leave()
        if queueRecordsAside != nil {
            makeRoomForQueueNote()
            queueNotes.leave(d, at: events.now, dispatched: dispatched)
        } else {
            queueOrder.leave(d)
            queueStints.leave(d, at: events.now, dispatched: dispatched)
        }
    }

    /// D15: an offer of a request from `zone` reaches `d`, which the request may go to unlike `excluded`.
    func recordOffer(to d: Int32, zone: Int, excluded: [Int32], counts: Bool) {
        if queueRecordsAside != nil {
            makeRoomForQueueNote()
            queueNotes.offer(to: d, zone: zone, excluded: excluded, counts: counts)
        } else {
            queueOrder.checkOffer(to: d, zone: zone, excluded: excluded, counts: counts)
        }
    }

    @inline(__always)
    private func makeRoomForQueueNote() {
        if queueNotes.isFull { queueRecordsAside?.send(&queueNotes) }
    }
}
