/// The first taxi of each spot of `AvailableTaxiIndex`, by the spot's exact position: a hash table with
/// open addressing and linear probing, so that a taxi turning available finds the spot it joins (or
/// learns it starts a new one) in O(1) instead of by comparing its position with every spot of its cell
/// (a city centre's cell held a hundred: 3 % of city-scale's instructions).
///
/// Invariant: every stored position is a spot's position with `-0` stored as `+0` (so that `==` on
/// positions and equality of the stored bits agree), stored once, with the slot of the spot's first taxi;
/// each entry lies on the probe run from its home bucket with no empty bucket between (deletion shifts
/// entries back); at most half the buckets are full.
struct SpotTable {
    private var xs: [UInt64] = []
    private var ys: [UInt64] = []
    /// The first taxi of the spot in each bucket, -1 in an empty bucket.
    private var firsts: [Int32] = []
    private var mask = 0
    private(set) var count = 0

    init() { resize(buckets: 16) }

    /// The first taxi of the spot at `position`, or nil when no spot is there.
    /// - Complexity: O(1) expected.
    func first(at position: Position) -> Int32? {
        let (x, y) = Self.bits(position)
        var bucket = Self.home(x, y, mask)
        while firsts[bucket] >= 0 {
            if xs[bucket] == x, ys[bucket] == y { return firsts[bucket] }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Records `slot` as the first taxi of the spot at `position`, new or not.
    /// - Complexity: O(1) expected, amortised.
    mutating func setFirst(_ slot: Int32, at position: Position) {
        let (x, y) = Self.bits(position)
        var bucket = Self.home(x, y, mask)
        while firsts[bucket] >= 0 {
            if xs[bucket] == x, ys[bucket] == y {
                firsts[bucket] = slot
                return
            }
            bucket = (bucket &+ 1) & mask
        }
        xs[bucket] = x
        ys[bucket] = y
        firsts[bucket] = slot
        count += 1
        if count * 2 > firsts.count { resize(buckets: firsts.count * 2) }
    }

    /// Forgets the spot at `position` (its last taxi left).
    /// - Precondition: a spot is there.
    mutating func remove(at position: Position) {
        let (x, y) = Self.bits(position)
        var hole = Self.home(x, y, mask)
        while !(xs[hole] == x && ys[hole] == y) {
            precondition(firsts[hole] >= 0, "no spot at \(position)")
            hole = (hole &+ 1) & mask
        }
        // Backward-shift deletion: move up every later entry of the run whose home is not between the hole and it.
        var bucket = hole
        while true {
            bucket = (bucket &+ 1) & mask
            if firsts[bucket] < 0 { break }
            let home = Self.home(xs[bucket], ys[bucket], mask)
            if (bucket &- home) & mask >= (bucket &- hole) & mask {
                xs[hole] = xs[bucket]
                ys[hole] = ys[bucket]
                firsts[hole] = firsts[bucket]
                hole = bucket
            }
        }
        firsts[hole] = -1
        count -= 1
    }

    private mutating func resize(buckets: Int) {
        let (oldX, oldY, oldFirst) = (xs, ys, firsts)
        xs = Array(repeating: 0, count: buckets)
        ys = Array(repeating: 0, count: buckets)
        firsts = Array(repeating: -1, count: buckets)
        mask = buckets - 1
        count = 0
        for i in oldFirst.indices where oldFirst[i] >= 0 {
            var bucket = Self.home(oldX[i], oldY[i], mask)
            while firsts[bucket] >= 0 { bucket = (bucket &+ 1) & mask }
            xs[bucket] = oldX[i]
            ys[bucket] = oldY[i]
            firsts[bucket] = oldFirst[i]
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
        for i in a.firsts.indices where a.firsts[i] >= 0 {
            let position = Position(x: Double(bitPattern: a.xs[i]), y: Double(bitPattern: a.ys[i]))
            guard b.first(at: position) == a.firsts[i] else { return false }
        }
        return true
    }
}
