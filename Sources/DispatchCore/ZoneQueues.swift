/// The FIFO queues of available taxis, one per zone (D1, D2, D15), as
/// intrusive doubly linked lists over driver slots.
///
/// Invariant: a slot is in at most one queue; along every queue the enqueue
/// stamps strictly increase from head to tail (so the head is the taxi that
/// has waited longest, D15); `count(of: z)` equals the length of zone z's list.
struct ZoneQueues: Equatable {
    /// A zone's queue: its first and last slot (-1 when empty) and its length.
    struct Ends: Equatable {
        var head: Int32 = -1
        var tail: Int32 = -1
        var count: Int32 = 0
    }

    /// A slot's place in the queues: its neighbours (-1 at either end), its zone (-1 when in no queue) and
    /// its enqueue stamp (valid while queued; kept after removal). The four fields of a slot lie in one
    /// record, so a queue operation reads and writes one record per slot it touches, and each table is
    /// checked for uniqueness once per operation rather than once per field (four tables made six checks
    /// of `swift_isUniquelyReferenced` per `remove` and per `link`).
    struct Link: Equatable {
        var next: Int32 = -1
        var previous: Int32 = -1
        var zone: Int32 = -1
        var stamp: UInt64 = 0
    }

    private var ends: [Ends]
    private var links: [Link] = []
    private var nextStamp: UInt64 = 1

    init(zoneCount: Int) {
        ends = Array(repeating: Ends(), count: zoneCount)
    }

    /// The number of zones.
    var zoneCount: Int { ends.count }
    /// The length of zone `zone`'s queue.
    @inline(__always) func count(of zone: Int) -> Int32 { ends[zone].count }
    /// The first (longest-waiting) slot of zone `zone`'s queue, or -1.
    @inline(__always) func head(of zone: Int) -> Int32 { ends[zone].head }
    /// The zone of `slot`'s queue, or -1.
    @inline(__always) func zone(of slot: Int32) -> Int32 { links[Int(slot)].zone }
    /// The enqueue stamp of `slot` (valid while queued; kept after removal).
    @inline(__always) func stamp(of slot: Int32) -> UInt64 { links[Int(slot)].stamp }

    mutating func addSlot() { links.append(Link()) }

    @inline(__always) func isQueued(_ slot: Int32) -> Bool { links[Int(slot)].zone >= 0 }

    /// Appends `slot` at the tail of `zone` with a fresh stamp (D2, D4, D5).
    /// - Complexity: O(1).
    mutating func enqueueAtTail(_ slot: Int32, zone: Int) {
        precondition(!isQueued(slot), "slot already queued")
        let stamp = nextStamp
        nextStamp &+= 1
        link(slot, after: ends[zone].tail, zone: zone, stamp: stamp)
    }

    /// Puts `slot` back with its old stamp, in stamp order (an offer taken back
    /// through no fault of the driver restores their place).
    /// - Complexity: O(position from the head).
    mutating func restore(_ slot: Int32, stamp oldStamp: UInt64, zone: Int) {
        precondition(!isQueued(slot), "slot already queued")
        var before: Int32 = -1
        var cursor = ends[zone].head
        while cursor >= 0, links[Int(cursor)].stamp < oldStamp {
            before = cursor
            cursor = links[Int(cursor)].next
        }
        link(slot, after: before, zone: zone, stamp: oldStamp)
    }

    /// Links `slot` into `zone`'s list after `before` (-1: at the head) with enqueue stamp `stamp`.
    private mutating func link(_ slot: Int32, after before: Int32, zone: Int, stamp: UInt64) {
        let s = Int(slot)
        let after = before >= 0 ? links[Int(before)].next : ends[zone].head
        // One uniqueness check for the six writes; the buffer's subscript checks no bounds in release
        // builds, so they are checked here (`slot` and `before` were read through the array already).
        precondition(after < links.count, "queue link out of range")
        links.withUnsafeMutableBufferPointer { links in
            links[s].previous = before
            links[s].next = after
            links[s].zone = Int32(zone)
            links[s].stamp = stamp
            if before >= 0 { links[Int(before)].next = slot }
            if after >= 0 { links[Int(after)].previous = slot }
        }
        var end = ends[zone]  // changed aside and written back once: one uniqueness check, not three
        if before < 0 { end.head = slot }
        if after < 0 { end.tail = slot }
        end.count += 1
        ends[zone] = end
    }

    /// Removes `slot` from its queue.
    /// - Complexity: O(1).
    mutating func remove(_ slot: Int32) {
        let s = Int(slot)
        let leaving = links[s]
        let zone = Int(leaving.zone)
        precondition(zone >= 0, "slot not queued")
        let before = leaving.previous, after = leaving.next
        precondition(before < links.count && after < links.count, "queue link out of range")  // as in `link`
        links.withUnsafeMutableBufferPointer { links in
            if before >= 0 { links[Int(before)].next = after }
            if after >= 0 { links[Int(after)].previous = before }
            links[s].previous = -1
            links[s].next = -1
            links[s].zone = -1
        }
        var end = ends[zone]  // as in `link`
        if before < 0 { end.head = after }
        if after < 0 { end.tail = before }
        end.count -= 1
        ends[zone] = end
    }

    /// The slot after `slot` in its queue, or -1.
    @inline(__always) func successor(of slot: Int32) -> Int32 { links[Int(slot)].next }

    /// Slots of `zone` from head (longest waiting) to tail.
    func slots(in zone: Int) -> [Int32] {
        var result: [Int32] = []
        var cursor = ends[zone].head
        while cursor >= 0 {
            result.append(cursor)
            cursor = links[Int(cursor)].next
        }
        return result
    }

    /// Whether there are `zones` queues and `slots` entries per slot table, every link in range
    /// (a restored snapshot's queues are then safe to walk; `invariantViolations` checks the rest).
    func fits(slots: Int, zones: Int) -> Bool {
        guard ends.count == zones, links.count == slots else { return false }
        let inRange = { (slot: Int32) in slot >= -1 && Int(slot) < slots }
        return ends.allSatisfy { inRange($0.head) && inRange($0.tail) }
            && links.allSatisfy { inRange($0.next) && inRange($0.previous) && $0.zone >= -1 && Int($0.zone) < zones }
    }

    /// Problems with the linkage, counts or stamp order; empty when sound.
    func invariantViolations() -> [String] {
        var problems: [String] = []
        var seen = Set<Int32>()
        for zone in ends.indices {
            var cursor = ends[zone].head, last: Int32 = -1, length: Int32 = 0
            var lastStamp: UInt64 = 0
            while cursor >= 0 {
                if !seen.insert(cursor).inserted { problems.append("slot \(cursor) appears twice in the queues") ; break }
                let link = links[Int(cursor)]
                if link.zone != Int32(zone) { problems.append("slot \(cursor) in queue \(zone) records zone \(link.zone)") }
                if link.previous != last { problems.append("broken back link at slot \(cursor)") }
                if link.stamp <= lastStamp { problems.append("queue \(zone) out of enqueue order at slot \(cursor)") }
                lastStamp = link.stamp
                last = cursor
                length += 1
                cursor = link.next
            }
            if ends[zone].tail != last { problems.append("queue \(zone) tail mismatch") }
            if ends[zone].count != length { problems.append("queue \(zone) count \(ends[zone].count) but \(length) linked") }
        }
        for (slot, link) in links.enumerated() where link.zone >= 0 && !seen.contains(Int32(slot)) {
            problems.append("slot \(slot) records zone \(link.zone) but is not linked")
        }
        return problems
    }
}

/// Snapshots keep the format of the seven parallel tables the queues were before they were records: `head`,
/// `tail` and `count` per zone, `next`, `previous`, `zoneOfSlot` and `stamp` per slot, then `nextStamp`.
extension ZoneQueues: Codable {
    private enum CodingKeys: String, CodingKey {
        case head, tail, count, next, previous, zoneOfSlot, stamp, nextStamp
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let head = try c.decode([Int32].self, forKey: .head)
        let tail = try c.decode([Int32].self, forKey: .tail)
        let count = try c.decode([Int32].self, forKey: .count)
        let next = try c.decode([Int32].self, forKey: .next)
        let previous = try c.decode([Int32].self, forKey: .previous)
        let zoneOfSlot = try c.decode([Int32].self, forKey: .zoneOfSlot)
        let stamp = try c.decode([UInt64].self, forKey: .stamp)
        for (key, table) in [(CodingKeys.tail, tail.count), (.count, count.count)] where table != head.count {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(table) zones, where head has \(head.count)")
        }
        for (key, table) in [(CodingKeys.previous, previous.count), (.zoneOfSlot, zoneOfSlot.count), (.stamp, stamp.count)]
        where table != next.count {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "\(table) slots, where next has \(next.count)")
        }
        ends = head.indices.map { Ends(head: head[$0], tail: tail[$0], count: count[$0]) }
        links = next.indices.map { Link(next: next[$0], previous: previous[$0], zone: zoneOfSlot[$0], stamp: stamp[$0]) }
        nextStamp = try c.decode(UInt64.self, forKey: .nextStamp)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(ends.map(\.head), forKey: .head)
        try c.encode(ends.map(\.tail), forKey: .tail)
        try c.encode(ends.map(\.count), forKey: .count)
        try c.encode(links.map(\.next), forKey: .next)
        try c.encode(links.map(\.previous), forKey: .previous)
        try c.encode(links.map(\.zone), forKey: .zoneOfSlot)
        try c.encode(links.map(\.stamp), forKey: .stamp)
        try c.encode(nextStamp, forKey: .nextStamp)
    }
}
