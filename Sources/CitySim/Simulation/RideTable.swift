import CacheHint
import DispatchCore

/// Every request of a run by id (`RideRecord`, kept to the end in a `RideLog`), and the part only open requests need —
/// their ride draws and the taxis they may no longer go to — in a table of reused entries, so the
/// simulator keeps 120 bytes per finished request and the open part stays O(open requests).
///
/// Invariant: a record's `openSlot` names its open entry while it is open, from the end of the command that
/// made its request on (`appendUnopened` then `open`); `freeSlots` lists exactly the entries no record names,
/// each with an empty (but kept) excluded list.
struct RideTable: RandomAccessCollection {
    /// What an open request needs beyond its row.
    struct OpenPart {
        var draw: RideDraw
        /// Taxis the request may no longer go to (D4 timeout, D5 decline, D9 lateness), as the simulator saw them.
        var excludedTaxis: [Int32]
    }

    /// The records, by id; a class, so this table's copies share it (the run's is the only one that writes).
    let records = RideLog()
    private var open: [OpenPart] = []
    private var freeSlots: [Int32] = []

    var startIndex: Int { 0 }
    var endIndex: Int { records.count }

    subscript(id: Int) -> RideRecord {
        get { records[id] }
        _modify { yield &records[id] }
    }

    func reserveCapacity(_ count: Int) { records.reserveCapacity(count) }

    /// Records a new request (id `count`) with its ride draws.
    mutating func append(_ record: RideRecord, draw: RideDraw) {
        appendUnopened(record)
        open(records.count - 1, draw: draw)
    }

    /// Records a new request (id `count`) without an open part yet: the core has not answered its command.
    /// Its effects may end it (`end` is then a no-op) but not read its draws or exclude a taxi; `open` gives
    /// it its part if it is still open after them. Three in four of the grid city's requests end in their own
    /// command, and taking and giving back an open entry for each was ~1.5 % of its loop (callgrind).
    mutating func appendUnopened(_ record: RideRecord) {
        precondition(record.openSlot < 0, "a new record has no open part")
        records.append(record)
    }

    /// Gives request `id`, recorded by `appendUnopened` and still open, its open part with its ride draws.
    mutating func open(_ id: Int, draw: RideDraw) {
        precondition(records[id].openSlot < 0 && records[id].outcome == .pending, "request \(id) opened twice or after it ended")
        if !freeSlots.isEmpty {  // not `popLast()`: a call of ~30 instructions where `removeLast()` is inlined
            let slot = freeSlots.removeLast()
            open[Int(slot)].draw = draw
            records[id].openSlot = slot
        } else {
            records[id].openSlot = Int32(open.count)
            open.append(OpenPart(draw: draw, excludedTaxis: []))
        }
    }

    /// Forgets the last request (the core refused it).
    mutating func removeLast() {
        end(records.count - 1)
        records.removeLast()
    }

    /// The request has ended: its open part, if it has one, is released for the next request. Inlined: most
    /// requests that end (three in four of the grid city's) never had one, and the call was most of the cost.
    @inline(__always)
    mutating func end(_ id: Int) {
        let slot = records[id].openSlot
        if slot >= 0 { release(id, slot: slot) }
    }

    @inline(never)
    private mutating func release(_ id: Int, slot: Int32) {
        // Only a list that holds a taxi is emptied: the others' entries (and their lists' buffers, each a
        // cache miss at megacity's scale, 3 % of its loop) are not read at all.
        if records[id].excludesTaxis {
            open[Int(slot)].excludedTaxis.removeAll(keepingCapacity: true)
            records[id].excludesTaxis = false
        }
        freeSlots.append(slot)
        records[id].openSlot = -1
    }

    /// The ride draws of an open request.
    func draw(_ id: Int) -> RideDraw { open[Int(records[id].openSlot)].draw }

    /// Starts loading the open request's draws (a hint: reads the record, changes nothing). An open entry is
    /// seldom in cache when its ride is accepted or picked up, minutes after the request came: reading its
    /// draws waited for memory, 4 % of megacity's loop thread (perf).
    @inline(__always)
    mutating func prefetchDraw(_ id: Int) {
        open.prefetchElement(Int(records[id].openSlot))
    }

    /// The taxis an open request may no longer go to.
    func excludedTaxis(_ id: Int) -> [Int32] {
        records[id].excludesTaxis ? open[Int(records[id].openSlot)].excludedTaxis : []
    }

    /// D4, D5, D9: the open request may no longer go to `taxi`.
    mutating func exclude(_ taxi: Int32, from id: Int) {
        open[Int(records[id].openSlot)].excludedTaxis.append(taxi)
        records[id].excludesTaxis = true
    }

    /// Open entries in use (requests open in the simulator's view) and entries held in memory.
    var openCount: Int { open.count - freeSlots.count }
    var openCapacity: Int { open.count }
}
