/// The simulator's own record of the zone queues, kept from what it observes and from the
/// requirements alone (D2: a taxi turning available, or moving zone while available, joins the
/// tail of its zone's queue; D4/D5 as the scenario's `on_timeout`/`on_decline` say), never from
/// the core's queues. At every offer it checks D15: the offer of a request goes to the taxi
/// that has waited longest in the origin zone's queue among those the request may still go to
/// (not excluded by an earlier timeout, decline or lateness, D4/D5/D9). An offer that skips
/// that taxi is a FIFO violation. When no queued taxi of the origin zone may take the request
/// (CAT, D6), there is nothing to check.
///
/// With helper threads it runs beside the loop (`QueueRecordsAside`), fed the same joins, leaves and offers.
///
/// Invariants: a taxi is queued in at most one zone (its `QueuePlace`); the entries of each zone from
/// `head` on are in stamp order, so in joining order; an entry is current exactly when its taxi is
/// queued in that zone with that stamp (others are skipped and dropped lazily).
struct QueueOrderCheck {
    private struct Entry { var taxi: Int32, stamp: Int }

    private var entries: [[Entry]]
    private var heads: [Int]
    private var places: [QueuePlace] = []
    private var stamps = QueueStamps()

    /// Offers checked and offers that skipped the longest-waiting eligible taxi.
    private(set) var offersChecked = 0, violations = 0

    init(zones: Int) {
        entries = Array(repeating: [], count: zones)
        heads = Array(repeating: 0, count: zones)
    }

    /// A new taxi, not queued.
    mutating func addTaxi() { places.append(QueuePlace()) }

    /// D2: the taxi joins the tail of `zone`'s queue (leaving any other).
    mutating func joinTail(_ taxi: Int32, zone: Int) {
        let stamp = places[Int(taxi)].joinTail(zone, stamps: &stamps)
        entries[zone].append(Entry(taxi: taxi, stamp: stamp))
    }

    /// The taxi takes back the place it had in `zone`'s queue when it joined at `stamp`.
    mutating func rejoin(_ taxi: Int32, zone: Int, stamp: Int) {
        places[Int(taxi)].rejoin(zone, stamp: stamp)
        var low = heads[zone], high = entries[zone].count
        while low < high {
            let mid = (low + high) / 2
            if entries[zone][mid].stamp < stamp { low = mid + 1 } else { high = mid }
        }
        if low < entries[zone].count, entries[zone][low].stamp == stamp { return }  // never dropped
        entries[zone].insert(Entry(taxi: taxi, stamp: stamp), at: low)
    }

    /// The taxi is in no queue any more.
    mutating func leave(_ taxi: Int32) { places[Int(taxi)].leave() }

    /// D15 for an offer of a request from `zone` to `chosen`: counts a violation when a taxi
    /// of that zone's queue that joined earlier, and that `excluded` does not name, was skipped.
    /// Counts only when `counts` (the request lies in the measurement window).
    mutating func checkOffer(to chosen: Int32, zone: Int, excluded: [Int32], counts: Bool) {
        guard let first = firstEligible(in: zone, excluded: excluded) else { return }
        guard counts else { return }
        offersChecked += 1
        if first != chosen { violations += 1 }
    }

    private func isCurrent(_ entry: Entry, in zone: Int) -> Bool {
        places[Int(entry.taxi)].holds(zone: zone, stamp: entry.stamp)
    }

    private mutating func firstEligible(in zone: Int, excluded: [Int32]) -> Int32? {
        while heads[zone] < entries[zone].count, !isCurrent(entries[zone][heads[zone]], in: zone) { heads[zone] += 1 }
        if heads[zone] > 256, heads[zone] * 2 > entries[zone].count {  // drop the stale prefix now and then
            entries[zone].removeFirst(heads[zone])
            heads[zone] = 0
        }
        var index = heads[zone]
        while index < entries[zone].count {
            let entry = entries[zone][index]
            if isCurrent(entry, in: zone), excluded.isEmpty || !excluded.contains(entry.taxi) { return entry.taxi }
            index += 1
        }
        return nil
    }
}

/// A taxi's place in the zone queues as the simulator records them: the zone it is queued in (none: -1) and
/// the stamp of its join. Kept for each taxi by the loop (in `SimDriver`, read when an offer reaches the taxi,
/// to give the place back if the offer is withdrawn) and by `QueueOrderCheck`, which may run on a helper
/// thread: fed the same joins from their own `QueueStamps`, the two hand out the same stamps.
///
/// Invariant: a taxi that takes back its place keeps its old stamp; every other join takes a new one.
struct QueuePlace {
    var zone: Int32 = -1
    var stamp = 0

    /// The zone the taxi is queued in, or nil.
    var queuedZone: Int? { zone >= 0 ? Int(zone) : nil }

    /// D2: the taxi joins the tail of `zone`'s queue (leaving any other); returns its new stamp.
    @discardableResult
    mutating func joinTail(_ zone: Int, stamps: inout QueueStamps) -> Int {
        self.zone = Int32(zone)
        stamp = stamps.next()
        return stamp
    }

    /// The taxi takes back the place it had in `zone`'s queue when it joined at `stamp`.
    mutating func rejoin(_ zone: Int, stamp: Int) {
        self.zone = Int32(zone)
        self.stamp = stamp
    }

    /// The taxi is in no queue any more.
    mutating func leave() { zone = -1 }

    /// Whether the taxi is queued in `zone` with the place it got at `stamp`.
    func holds(zone: Int, stamp: Int) -> Bool { self.zone == Int32(zone) && self.stamp == stamp }
}

/// The stamps handed out to taxis joining a queue's tail. Invariant: `last` is the last one handed out, and
/// each new one is larger, so the stamps of a zone's taxis give their joining order.
struct QueueStamps {
    private(set) var last = 0

    mutating func next() -> Int {
        last += 1
        return last
    }
}
