/// The drivers' side of every zone queue, for `fairness.by_shift_zone`, aggregated as it happens. A stint is
/// the time a taxi spends in one zone's queue, from joining it (D2: turning available, moving zone, a D4/D5
/// requeue, or taking back its place after an offer was withdrawn) to leaving it, ended by an offer — a
/// dispatch from that queue — or otherwise (shift end, moving to another zone, the horizon), which censors
/// the wait.
///
/// Fed by the simulator from the same observations as `QueueOrderCheck`, never from the core's queues.
/// A stint belongs to the driver-shift it began in: the taxi's last shift interval starting at or before
/// the stint's start. Only stints begun in the measurement window count, and only those of driver-shifts
/// wholly inside it. As a stint ends it is added to its taxi's open driver-shift: per zone, the queued
/// seconds (summed in the order the stints began) and the dispatched stints' waits. When a stint of a later
/// driver-shift ends, the open one is closed into `kept`: one `Cell` per zone where it queued at least
/// `ZoneQueueFairnessBuilder.minimumQueuedSeconds` (no driver below that is compared), with its waits; the
/// rest is dropped. So what grows with the run is 24 bytes a kept cell and 8 bytes a kept dispatch, not a
/// record a stint; the open driver-shifts (per taxi, 16 bytes a zone and 8 a dispatch) are bounded by the
/// fleet and a shift's length.
///
/// Invariant: a taxi has at most one open stint and one open driver-shift, and its stints end in the order
/// they began, so its driver-shifts close in order and each (driver-shift, zone) has at most one cell;
/// `kept.cells` hold only complete driver-shifts' zones with at least that minimum; `kept.waits` holds their
/// dispatched stints' waits, cell after cell in `kept.cells` order, `dispatches` of them each.
struct QueueStints {
    /// A driver-shift's time in one zone's queue.
    struct Cell {
        /// Queued seconds in the zone, over the driver-shift.
        let seconds: Double
        /// The scenario shift (index in `fleet.shifts`) and the driver-shift: the taxi's intervals numbered
        /// across the fleet, driver after driver (driver 0's first is 0).
        let shift: Int32, driverShift: Int32
        let zone: Int32
        /// Stints in the zone ended by an offer: how many of `Part.waits` are this cell's.
        let dispatches: Int32
    }

    /// Closed cells and their waits (see the invariant).
    struct Part {
        var cells: [Cell] = []
        var waits: [Double] = []
        /// What they keep, bytes.
        var bytes: Int { MemoryLayout<Cell>.stride * cells.count + MemoryLayout<Double>.stride * waits.count }
    }

    /// The open driver-shift's time in one zone's queue so far.
    private struct OpenZone {
        let zone: Int32
        var dispatches: Int32 = 0
        var seconds = 0.0
    }

    /// A taxi's open stint and open driver-shift.
    private struct Taxi {
        /// The zone of the open stint (-1: none) and when it began.
        var openZone: Int32 = -1
        /// The interval of the open driver-shift (-1: none), and whether it lies wholly in the window.
        var openShift: Int32 = -1
        var openShiftCounts = false
        var openSince = 0.0
        /// Stints beginning in [start, next) belong to the open driver-shift: its interval's start and the
        /// next interval's (infinity after the last).
        var openShiftStart = 0.0, nextShiftStart = 0.0
    }

    /// The measurement window: stints begun before its start are not kept, driver-shifts not wholly inside
    /// it are dropped.
    let window: (start: Double, end: Double)
    /// Per taxi: its scenario shift, its shift intervals (ordered) and the number of its first driver-shift.
    private let shift: [Int32]
    private let intervals: [[(start: Double, end: Double)]]
    private let firstDriverShift: [Int32]
    /// Per taxi, together so that a stint's end reads one place (a profile of city-scale spent 6 % of
    /// the loop on cache misses when these were five arrays and the intervals were looked up each time).
    private var taxis: [Taxi]
    /// Per taxi: its open driver-shift's zones, and its dispatched stints' waits zone after zone in
    /// `openZones` order (`dispatches` of them each), so they need no zone tag.
    private var openZones: [[OpenZone]]
    private var openWaits: [[Double]]
    /// The closed driver-shifts' cells.
    private(set) var kept = Part()

    /// - Parameter drivers: per taxi (by index), its scenario shift and its shift intervals, ordered.
    init(drivers: [(shift: Int, intervals: [(start: Double, end: Double)])], window: (start: Double, end: Double)) {
        self.window = window
        shift = drivers.map { Int32($0.shift) }
        intervals = drivers.map(\.intervals)
        var first: [Int32] = [], next: Int32 = 0
        for driver in drivers {
            first.append(next)
            next += Int32(driver.intervals.count)
        }
        firstDriverShift = first
        taxis = Array(repeating: Taxi(), count: drivers.count)
        openZones = Array(repeating: [], count: drivers.count)
        openWaits = Array(repeating: [], count: drivers.count)
    }

    /// The taxi joins `zone`'s queue at `time`; an open stint in another queue ends there, censored.
    mutating func join(_ taxi: Int32, zone: Int, at time: Double) {
        let t = Int(taxi)
        if taxis[t].openZone == Int32(zone) { return }  // still in that queue: the stint goes on
        leave(taxi, at: time, dispatched: false)
        taxis[t].openZone = Int32(zone)
        taxis[t].openSince = time
    }

    /// The taxi leaves its queue at `time`: `dispatched` when an offer took it out.
    mutating func leave(_ taxi: Int32, at time: Double, dispatched: Bool) {
        let t = Int(taxi)
        let open = taxis[t]
        guard open.openZone >= 0 else { return }
        if open.openSince >= window.start {
            add(t, zone: open.openZone, start: open.openSince, seconds: time - open.openSince, dispatched: dispatched)
        }
        taxis[t].openZone = -1
    }

    /// The cells still open, closed at `horizon`: each open stint ends there, censored, and each open
    /// driver-shift closes. At most one driver-shift per taxi; `kept` is not copied.
    func closing(at horizon: Double) -> Part {
        var rest = self
        rest.kept = Part()
        for t in taxis.indices {
            rest.leave(Int32(t), at: horizon, dispatched: false)
            rest.closeShift(of: t)
        }
        return rest.kept
    }

    /// A stint of taxi `t` that began in the window ends.
    private mutating func add(_ t: Int, zone: Int32, start: Double, seconds: Double, dispatched: Bool) {
        let open = taxis[t]
        if open.openShift < 0 || start < open.openShiftStart || start >= open.nextShiftStart {
            guard let i = intervals[t].lastIndex(where: { $0.start <= start }) else { return }
            assert(open.openShift <= Int32(i), "a taxi's stints end in the order they began")
            if open.openShift != Int32(i) { closeShift(of: t) }
            let interval = intervals[t][i]
            taxis[t].openShift = Int32(i)
            taxis[t].openShiftCounts = interval.start >= window.start && interval.end <= window.end
            taxis[t].openShiftStart = interval.start
            taxis[t].nextShiftStart = i + 1 < intervals[t].count ? intervals[t][i + 1].start : .infinity
        }
        guard taxis[t].openShiftCounts else { return }
        let z = openZones[t].firstIndex(where: { $0.zone == zone }) ?? openZones[t].endIndex
        if z == openZones[t].endIndex {
            openZones[t].append(OpenZone(zone: zone, seconds: seconds))
        } else {
            openZones[t][z].seconds += seconds
        }
        if dispatched {  // at the end of the zone's waits
            openWaits[t].insert(seconds, at: openZones[t][...z].reduce(0) { $0 + Int($1.dispatches) })
            openZones[t][z].dispatches += 1
        }
    }

    /// Taxi `t`'s open driver-shift closes: its zones with enough queued time are kept, with their waits.
    private mutating func closeShift(of t: Int) {
        guard taxis[t].openShift >= 0 else { return }
        let driverShift = firstDriverShift[t] + taxis[t].openShift
        var firstWait = 0
        for open in openZones[t] {
            let waits = firstWait..<(firstWait + Int(open.dispatches))
            firstWait = waits.upperBound
            guard open.seconds >= ZoneQueueFairnessBuilder.minimumQueuedSeconds else { continue }
            kept.cells.append(Cell(seconds: open.seconds, shift: shift[t], driverShift: driverShift, zone: open.zone,
                                   dispatches: open.dispatches))
            kept.waits += openWaits[t][waits]
        }
        openZones[t].removeAll(keepingCapacity: true)
        openWaits[t].removeAll(keepingCapacity: true)
        taxis[t].openShift = -1
    }
}
