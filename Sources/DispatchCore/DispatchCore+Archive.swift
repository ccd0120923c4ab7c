// MARK: - Archiving ended requests out of memory

extension DispatchCore {
    /// The id an archived record carries until the next compaction drops it (reserved: a host
    /// must not use it for a request).
    static let archivedMarker = RequestID(Int.min)

    /// Forgets an ended request: the core no longer holds it, so its status and every command
    /// naming it answer as for an unknown request (`unknownRequest`), and a timer of it is refused.
    /// A long-running host (the service) calls this for rides that ended a while ago, after it has
    /// stored what it wants to show of them; the simulator never does.
    ///
    /// Archiving changes no decision: an ended request is in no queue, offer, ride or waiting
    /// list, and no rule reads it again except D13 reports, which the host stops taking for it.
    /// The driver's and customer's D13 counts stay. The id must not be reused.
    ///
    /// Memory: the record stays as a tombstone until tombstones outnumber the requests held
    /// (and number at least 1,024); then the table is compacted, so it holds at most about twice
    /// the requests held plus 1,024.
    /// - Throws: `unknownRequest` (unknown or already archived), `illegalRequestTransition` for a
    ///   request that has not ended; the core is then unchanged.
    /// - Complexity: amortized O(1); a compaction is O(requests held + waiting entries).
    public func archive(_ id: RequestID) throws(DispatchError) {
        let slot = try slot(of: id)
        let status = requests[Int(slot)].status
        guard status.isTerminal else { throw .illegalRequestTransition(id, state: status, command: "be archived") }
        requests[Int(slot)].id = Self.archivedMarker
        requestSlot[id] = nil
        archivedSlots += 1
        if archivedSlots >= 1024, archivedSlots * 2 > requests.count { compactRequests() }
    }

    /// Drops the tombstones: the records held move down to consecutive slots, and every slot
    /// reference (the id → slot table, open requests of customers, the waiting lists) follows.
    /// Ended requests are in no waiting list's live part, and open ones are never archived.
    func compactRequests() {
        var moved = [Int32](repeating: -1, count: requests.count)
        var kept: [RequestRecord] = []
        kept.reserveCapacity(requests.count - archivedSlots)
        for (slot, record) in requests.enumerated() where record.id != Self.archivedMarker {
            moved[slot] = Int32(kept.count)
            kept.append(record)
        }
        requests = kept
        archivedSlots = 0
        requestSlot = [:]
        for (slot, record) in requests.enumerated() where record.id.rawValue != slot {
            requestSlot[record.id] = Int32(slot)
        }
        for (customer, slot) in openRequestOfCustomer { openRequestOfCustomer[customer] = moved[Int(slot)] }
        func follow(_ list: [Int32], from head: Int) -> [Int32] {
            list[head...].compactMap { moved[Int($0)] >= 0 ? moved[Int($0)] : nil }
        }
        waiting = follow(waiting, from: waitingHead)
        waitingHead = 0
        for zone in waitingInZone.indices {
            waitingInZone[zone] = follow(waitingInZone[zone], from: waitingInZoneHead[zone])
            waitingInZoneHead[zone] = 0
        }
    }
}
