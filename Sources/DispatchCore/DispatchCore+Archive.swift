// MARK: - Ended requests out of the live table, and archived ones out of memory

extension DispatchCore {
    /// Tombstones (ended records in `requests`, archived ones in `ended`) are dropped once they number at
    /// least this many and outnumber the records kept (ended records in `requests`: `tombstonesPerKept`
    /// times): amortized O(1) per request, and the tables hold at most about that many times what they
    /// keep, plus this many.
    @usableFromInline static let compactionFloor = 1024
    /// Ended records in the live table per open one before it is compacted. Each compaction moves every
    /// open record (a reservation hours ahead is moved again and again), so waiting for four times as many
    /// tombstones moves four times less: city-scale's 38 compactions of its first 8 h cost 48 M
    /// instructions, for tables of ~2,000 open requests (a few hundred kB more at most).
    @usableFromInline static let tombstonesPerKept = 4

    /// Forgets an ended request: the core no longer holds it, so its status and every command
    /// naming it answer as for an unknown request (`unknownRequest`), and a timer of it is refused.
    /// A long-running host (the service) calls this for rides that ended a while ago, after it has
    /// stored what it wants to show of them; the simulator never does.
    ///
    /// Archiving changes no decision: an ended request is in no queue, offer, ride or waiting
    /// list, and no rule reads it again except D13 reports, which the host stops taking for it.
    /// The driver's and customer's D13 counts stay. The id must not be reused.
    ///
    /// Memory: an ended request keeps 16 bytes in `ended` (plus its directory entry); archiving makes
    /// that a tombstone until tombstones outnumber the ended requests held (and number at least
    /// 1,024); then the ended table is compacted.
    /// - Throws: `unknownRequest` (unknown or already archived), `illegalRequestTransition` for a
    ///   request that has not ended; the core is then unchanged.
    /// - Complexity: amortized O(1); a compaction is O(ended requests held + directory entries).
    public func archive(_ id: RequestID) throws(DispatchError) {
        let slot = try slot(of: id)
        guard slot < 0 else {
            throw .illegalRequestTransition(id, state: requests[Int(slot)].status, command: "be archived")
        }
        ended[RequestDirectory.endedIndex(slot)].outcome = .archived
        directory.remove(id)
        archivedEnded += 1
        if archivedEnded >= Self.compactionFloor, archivedEnded * 2 > ended.count { compactEnded() }
    }

    /// Drops the tombstones of ended requests from the live table: the open records move down to
    /// consecutive slots in place, keeping their order, and every slot reference (the directory, the
    /// waiting lists) follows. Ended requests are in no waiting list's live part.
    /// Runs between commands, never during one (a command may still read a record it ended).
    @usableFromInline func compactRequests() {
        var moved = [Int32](repeating: -1, count: requests.count)
        var kept = 0
        for slot in requests.indices where !requests[slot].status.isTerminal {
            if kept != slot {
                requests.swapAt(kept, slot)
                directory.move(requests[kept].id, to: Int32(kept))
            }
            moved[slot] = Int32(kept)
            kept += 1
        }
        requests.removeLast(requests.count - kept)
        endedSlots = 0
        func follow(_ list: inout [Int32], from head: Int) {
            var count = 0
            for i in head..<list.count where moved[Int(list[i])] >= 0 {
                list[count] = moved[Int(list[i])]
                count += 1
            }
            list.removeLast(list.count - count)
        }
        follow(&waiting, from: waitingHead)
        waitingHead = 0
        for zone in waitingInZone.indices where !waitingInZone[zone].isEmpty {
            follow(&waitingInZone[zone], from: waitingInZoneHead[zone])
            waitingInZoneHead[zone] = 0
        }
    }

    /// Drops archived tombstones from the ended table; the directory follows.
    func compactEnded() {
        var moved = [Int](repeating: -1, count: ended.count)
        var kept = 0
        for i in ended.indices where ended[i].outcome != .archived {
            ended[kept] = ended[i]
            moved[i] = kept
            kept += 1
        }
        ended.removeLast(ended.count - kept)
        archivedEnded = 0
        directory.remapEnded { moved[$0] }
        directory.trimFront()
    }
}
