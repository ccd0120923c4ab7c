/// The FIFO queues of available taxis, one per zone (D1, D2, D15), as
/// intrusive doubly linked lists over driver slots.
///
/// Invariant: a slot is in at most one queue; along every queue the enqueue
/// stamps strictly increase from head to tail (so the head is the taxi that
/// has waited longest, D15); `count[z]` equals the length of zone z's list.
struct ZoneQueues: Equatable, Codable {
    private(set) var head: [Int32]
    private(set) var tail: [Int32]
    private(set) var count: [Int32]
    private var next: [Int32] = []
    private var previous: [Int32] = []
    /// Zone of each slot, or -1 when the slot is in no queue.
    private(set) var zoneOfSlot: [Int32] = []
    /// Enqueue stamp of each slot (valid while queued; kept after removal).
    private(set) var stamp: [UInt64] = []
    private var nextStamp: UInt64 = 1

    init(zoneCount: Int) {
        head = Array(repeating: -1, count: zoneCount)
        tail = Array(repeating: -1, count: zoneCount)
        count = Array(repeating: 0, count: zoneCount)
    }

    mutating func addSlot() {
        next.append(-1)
        previous.append(-1)
        zoneOfSlot.append(-1)
        stamp.append(0)
    }

    @inline(__always) func isQueued(_ slot: Int32) -> Bool { zoneOfSlot[Int(slot)] >= 0 }

    /// Appends `slot` at the tail of `zone` with a fresh stamp (D2, D4, D5).
    /// - Complexity: O(1).
    mutating func enqueueAtTail(_ slot: Int32, zone: Int) {
        precondition(!isQueued(slot), "slot already queued")
        stamp[Int(slot)] = nextStamp
        nextStamp &+= 1
        link(slot, after: tail[zone], zone: zone)
    }

    /// Puts `slot` back with its old stamp, in stamp order (an offer taken back
    /// through no fault of the driver restores their place).
    /// - Complexity: O(position from the head).
    mutating func restore(_ slot: Int32, stamp oldStamp: UInt64, zone: Int) {
        precondition(!isQueued(slot), "slot already queued")
        stamp[Int(slot)] = oldStamp
        var before: Int32 = -1
        var cursor = head[zone]
        while cursor >= 0, stamp[Int(cursor)] < oldStamp {
            before = cursor
            cursor = next[Int(cursor)]
        }
        link(slot, after: before, zone: zone)
    }

    private mutating func link(_ slot: Int32, after before: Int32, zone: Int) {
        let s = Int(slot)
        let after = before >= 0 ? next[Int(before)] : head[zone]
        previous[s] = before
        next[s] = after
        if before >= 0 { next[Int(before)] = slot } else { head[zone] = slot }
        if after >= 0 { previous[Int(after)] = slot } else { tail[zone] = slot }
        zoneOfSlot[s] = Int32(zone)
        count[zone] += 1
    }

    /// Removes `slot` from its queue.
    /// - Complexity: O(1).
    mutating func remove(_ slot: Int32) {
        let s = Int(slot)
        let zone = Int(zoneOfSlot[s])
        precondition(zone >= 0, "slot not queued")
        let before = previous[s], after = next[s]
        if before >= 0 { next[Int(before)] = after } else { head[zone] = after }
        if after >= 0 { previous[Int(after)] = before } else { tail[zone] = before }
        previous[s] = -1
        next[s] = -1
        zoneOfSlot[s] = -1
        count[zone] -= 1
    }

    /// The slot after `slot` in its queue, or -1.
    @inline(__always) func successor(of slot: Int32) -> Int32 { next[Int(slot)] }

    /// Slots of `zone` from head (longest waiting) to tail.
    func slots(in zone: Int) -> [Int32] {
        var result: [Int32] = []
        var cursor = head[zone]
        while cursor >= 0 {
            result.append(cursor)
            cursor = next[Int(cursor)]
        }
        return result
    }

    /// Whether there are `zones` queues and `slots` entries per slot table, every link in range
    /// (a restored snapshot's queues are then safe to walk; `invariantViolations` checks the rest).
    func fits(slots: Int, zones: Int) -> Bool {
        guard head.count == zones, tail.count == zones, count.count == zones,
              [next, previous, zoneOfSlot].allSatisfy({ $0.count == slots }), stamp.count == slots else { return false }
        return [head, tail, next, previous].allSatisfy { $0.allSatisfy { $0 >= -1 && Int($0) < slots } }
            && zoneOfSlot.allSatisfy { $0 >= -1 && Int($0) < zones }
    }

    /// Problems with the linkage, counts or stamp order; empty when sound.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var seen = Set<Int32>()
        for zone in head.indices {
            var cursor = head[zone], last: Int32 = -1, length: Int32 = 0
            var lastStamp: UInt64 = 0
            while cursor >= 0 {
                if !seen.insert(cursor).inserted { problems.append("slot \(cursor) appears twice in the queues") ; break }
                if zoneOfSlot[Int(cursor)] != Int32(zone) { problems.append("slot \(cursor) in queue \(zone) records zone \(zoneOfSlot[Int(cursor)])") }
                if previous[Int(cursor)] != last { problems.append("broken back link at slot \(cursor)") }
                if stamp[Int(cursor)] <= lastStamp { problems.append("queue \(zone) out of enqueue order at slot \(cursor)") }
                lastStamp = stamp[Int(cursor)]
                last = cursor
                length += 1
                cursor = next[Int(cursor)]
            }
            if tail[zone] != last { problems.append("queue \(zone) tail mismatch") }
            if count[zone] != length { problems.append("queue \(zone) count \(count[zone]) but \(length) linked") }
        }
        for (slot, zone) in zoneOfSlot.enumerated() where zone >= 0 && !seen.contains(Int32(slot)) {
            problems.append("slot \(slot) records zone \(zone) but is not linked")
        }
        return problems
    }
}
