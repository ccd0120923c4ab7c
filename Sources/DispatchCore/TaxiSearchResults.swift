/// A taxi found by a ring search of `AvailableTaxiIndex`, with its place in the search order:
/// ETA, then the slot of its spot's first taxi, then its rank in arrival order at the spot.
struct FoundTaxi {
    var slot: Int32, eta: Double, spot: Int32, rank: Int32

    @inline(__always) func precedes(_ other: FoundTaxi) -> Bool {
        eta != other.eta ? eta < other.eta : spot != other.spot ? spot < other.spot : rank < other.rank
    }
}

/// The best taxis a ring search has found so far, in search order.
///
/// Invariant: at most `limit` taxis are kept, each preceding the next; `bound` is the last of them
/// once `limit` are kept (a taxi that does not precede it cannot make the list), nil before.
protocol TaxiSearchResults {
    /// How many taxis the search wants, ≥ 0.
    var limit: Int { get }
    var bound: FoundTaxi? { get }
    /// Keeps `found`, which precedes `bound` when there is one; drops what then falls past `limit`.
    mutating func keep(_ found: FoundTaxi)
}

/// The single best taxi, kept in place: the common search (`limit` 1) allocates nothing.
struct BestTaxi: TaxiSearchResults {
    private(set) var best: FoundTaxi?
    var limit: Int { 1 }
    var bound: FoundTaxi? { best }
    mutating func keep(_ found: FoundTaxi) { best = found }
}

/// The `limit` best taxis, nearest first.
struct BestTaxis: TaxiSearchResults {
    let limit: Int
    private(set) var list: [FoundTaxi] = []

    init(limit: Int) {
        self.limit = max(0, limit)
        list.reserveCapacity(self.limit + 1)
    }

    var bound: FoundTaxi? { list.count == limit && limit > 0 ? list[limit - 1] : nil }

    /// Empties the list for the next search, keeping its storage.
    mutating func removeAll() { list.removeAll(keepingCapacity: true) }

    mutating func keep(_ found: FoundTaxi) {
        var at = list.count
        while at > 0, found.precedes(list[at - 1]) { at -= 1 }
        list.insert(found, at: at)
        if list.count > limit { list.removeLast() }
    }
}
