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
/// Invariants: a taxi is queued in at most one zone (`QueuePlaces`); the entries of each zone from
/// `head` on are in stamp order, so in joining order; an entry is current exactly when its taxi is
/// queued in that zone with that stamp (others are skipped and dropped lazily).
struct QueueOrderCheck {
    private struct Entry { var taxi: Int32, stamp: Int }

    private var entries: [[Entry]]
    private var heads: [Int]
    private var places = QueuePlaces()

    /// Offers checked and offers that skipped the longest-waiting eligible taxi.
    private(set) var offersChecked = 0, violations = 0

    init(zones: Int) {
        entries = Array(repeating: [], count: zones)
        heads = Array(repeating: 0, count: zones)
    }

    /// A new taxi, not queued.
    mutating func addTaxi() { places.addTaxi() }

    /// D2: the taxi joins the tail of `zone`'s queue (leaving any other).
    mutating func joinTail(_ taxi: Int32, zone: Int) {
        let stamp = places.joinTail(taxi, zone: zone)
        entries[zone].append(Entry(taxi: taxi, stamp: stamp))
    }

    /// The taxi takes back the place it had in `zone`'s queue when it joined at `stamp`.
    mutating func rejoin(_ taxi: Int32, zone: Int, stamp: Int) {
        places.rejoin(taxi, zone: zone, stamp: stamp)
        var low = heads[zone], high = entries[zone].count
        while low < high {
            let mid = (low + high) / 2
            if entries[zone][mid].stamp < stamp { low = mid + 1 } else { high = mid }
        }
        if low < entries[zone].count, entries[zone][low].stamp == stamp { return }  // never dropped
        entries[zone].insert(Entry(taxi: taxi, stamp: stamp), at: low)
    }

    /// The taxi is in no queue any more.
    mutating func leave(_ taxi: Int32) { places.leave(taxi) }

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
        places.holds(entry.taxi, zone: zone, stamp: entry.stamp)
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

/// Where each taxi stands in the zone queues as the simulator records them: the zone it is queued in
/// (none: -1) and the stamp of its join. Kept by the loop, which reads a taxi's place when an offer
/// reaches it (to give the place back if the offer is withdrawn), and inside `QueueOrderCheck`, which
/// may run on a helper thread: fed the same joins, the two hand out the same stamps.
///
/// Invariant: `nextStamp` is the last stamp handed out; every join to a tail takes a larger one, so the
/// stamps of a zone's taxis give their joining order (a taxi taking back its place keeps its old stamp).
struct QueuePlaces {
    private var zoneOf: [Int32] = []
    private var stampOf: [Int] = []
    private var nextStamp = 0

    /// A new taxi, not queued.
    mutating func addTaxi() {
        zoneOf.append(-1)
        stampOf.append(0)
    }

    /// The zone the taxi is queued in, or nil.
    func zone(of taxi: Int32) -> Int? { zoneOf[Int(taxi)] >= 0 ? Int(zoneOf[Int(taxi)]) : nil }

    /// When the queued taxi joined its queue (for keeping its place when an offer is taken back).
    func stamp(of taxi: Int32) -> Int { stampOf[Int(taxi)] }

    /// D2: the taxi joins the tail of `zone`'s queue (leaving any other); returns its new stamp.
    @discardableResult
    mutating func joinTail(_ taxi: Int32, zone: Int) -> Int {
        nextStamp += 1
        zoneOf[Int(taxi)] = Int32(zone)
        stampOf[Int(taxi)] = nextStamp
        return nextStamp
    }

    /// The taxi takes back the place it had in `zone`'s queue when it joined at `stamp`.
    mutating func rejoin(_ taxi: Int32, zone: Int, stamp: Int) {
        zoneOf[Int(taxi)] = Int32(zone)
        stampOf[Int(taxi)] = stamp
    }

    /// The taxi is in no queue any more.
    mutating func leave(_ taxi: Int32) { zoneOf[Int(taxi)] = -1 }

    /// Whether the taxi is queued in `zone` with the place it got at `stamp`.
    func holds(_ taxi: Int32, zone: Int, stamp: Int) -> Bool {
        zoneOf[Int(taxi)] == Int32(zone) && stampOf[Int(taxi)] == stamp
    }
}
