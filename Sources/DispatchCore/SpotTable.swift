/// The first taxi of each spot of `AvailableTaxiIndex`, by the spot's exact position: a hash table with
/// open addressing and linear probing, so that a taxi turning available finds the spot it joins (or
/// learns it starts a new one) in O(1) instead of by comparing its position with every spot of its cell
/// (a city centre's cell held a hundred: 3 % of city-scale's instructions).
///
/// A bucket keeps the position's bits and the first taxi together (24 bytes), so a probe reads one line and a
/// write checks one buffer's uniqueness (three parallel tables made three of each).
///
/// Invariant: every stored position is a spot's position with `-0` stored as `+0` (so that `==` on
/// positions and equality of the stored bits agree), stored once, with the slot of the spot's first taxi;
/// each entry lies on the probe run from its home bucket with no empty bucket between (deletion shifts
/// entries back); at most half the buckets are full.
struct SpotTable {
    /// A spot's position bits and first taxi; `first == -1` in an empty bucket.
    private struct Bucket {
        var x: UInt64 = 0
        var y: UInt64 = 0
        var first: Int32 = -1
    }

    private var buckets: [Bucket] = []
    private var mask = 0
    private(set) var count = 0

    init() { resize(buckets: 16) }

    /// The first taxi of the spot at `position`, or nil when no spot is there.
    /// - Complexity: O(1) expected.
    func first(at position: Position) -> Int32? {
        let (x, y) = Self.bits(position)
        var bucket = Self.home(x, y, mask)
        while buckets[bucket].first >= 0 {
            if buckets[bucket].x == x, buckets[bucket].y == y { return buckets[bucket].first }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Records `slot` as the first taxi of the spot at `position`, new or not.
    /// - Complexity: O(1) expected, amortised.
    mutating func setFirst(_ slot: Int32, at position: Position) {
        let (x, y) = Self.bits(position)
        let bucket = probe(x, y)
        if buckets[bucket].first < 0 { add(slot, x, y, in: bucket) } else { buckets[bucket].first = slot }
    }

    /// The first taxi of the spot at `position`; when no spot is there, one is started with `slot` as its
    /// first taxi and the result is nil. One probe for what `first(at:)` then `setFirst` would do in two.
    /// - Complexity: O(1) expected, amortised.
    mutating func firstOrStart(_ slot: Int32, at position: Position) -> Int32? {
        let (x, y) = Self.bits(position)
        let bucket = probe(x, y)
        let first = buckets[bucket].first
        if first >= 0 { return first }
        add(slot, x, y, in: bucket)
        return nil
    }

    /// The bucket holding the spot at bits (`x`, `y`), or the empty bucket that ends its probe run.
    @inline(__always) private func probe(_ x: UInt64, _ y: UInt64) -> Int {
        var bucket = Self.home(x, y, mask)
        while buckets[bucket].first >= 0, !(buckets[bucket].x == x && buckets[bucket].y == y) {
            bucket = (bucket &+ 1) & mask
        }
        return bucket
    }

    /// Starts a spot in the empty bucket `bucket`, the end of its probe run.
    @inline(__always) private mutating func add(_ slot: Int32, _ x: UInt64, _ y: UInt64, in bucket: Int) {
        buckets[bucket] = Bucket(x: x, y: y, first: slot)
        count += 1
        if count * 2 > buckets.count { resize(buckets: buckets.count * 2) }
    }

    /// Forgets the spot at `position` (its last taxi left).
    /// - Precondition: a spot is there.
    mutating func remove(at position: Position) {
        let (x, y) = Self.bits(position)
        var hole = probe(x, y)
        precondition(buckets[hole].first >= 0, "no spot at \(position)")
        // Backward-shift deletion: move up every later entry of the run whose home is not between the hole and it.
        var bucket = hole
        while true {
            bucket = (bucket &+ 1) & mask
            let entry = buckets[bucket]
            if entry.first < 0 { break }
            let home = Self.home(entry.x, entry.y, mask)
            if (bucket &- home) & mask >= (bucket &- hole) & mask {
                buckets[hole] = entry
                hole = bucket
            }
        }
        buckets[hole].first = -1
        count -= 1
    }

    private mutating func resize(buckets size: Int) {
        let old = buckets
        buckets = Array(repeating: Bucket(), count: size)
        mask = size - 1
        count = 0
        for entry in old where entry.first >= 0 {
            var bucket = Self.home(entry.x, entry.y, mask)
            while buckets[bucket].first >= 0 { bucket = (bucket &+ 1) & mask }
            buckets[bucket] = entry
            count += 1
        }
    }

    /// The position's bits, `-0` as `+0` (`+ 0` does it).
    @inline(__always) private static func bits(_ position: Position) -> (UInt64, UInt64) {
        ((position.x + 0).bitPattern, (position.y + 0).bitPattern)
    }

    @inline(__always) private static func home(_ x: UInt64, _ y: UInt64, _ mask: Int) -> Int {
        var h = x &* 0x9E37_79B9_7F4A_7C15 ^ (y &+ 0x632B_E59B_D9B4_E019) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 29
        return Int(truncatingIfNeeded: h) & mask
    }
}

extension SpotTable: Equatable {
    /// The same spots with the same first taxis, whatever the buckets' layout (it depends on the order
    /// spots came and went).
    static func == (a: SpotTable, b: SpotTable) -> Bool {
        guard a.count == b.count else { return false }
        for entry in a.buckets where entry.first >= 0 {
            let position = Position(x: Double(bitPattern: entry.x), y: Double(bitPattern: entry.y))
            guard b.first(at: position) == entry.first else { return false }
        }
        return true
    }
}
