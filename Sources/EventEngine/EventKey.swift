/// The ordering key of one pending event: time, then priority, then the
/// sequence number given at scheduling.
///
/// Sequence numbers are unique within a queue, so two keys of one queue are
/// never equal and the order of pending events is total: it never depends on
/// where the heap happens to keep them.
///
/// The whole key is one unsigned 128-bit number, `high` then `low`: the time's bits
/// (mapped to sort as the time does), then the priority (within
/// ``EventKey/priorities``, offset to be non-negative) in 8 bits and the
/// sequence number in 56. Comparing two keys is one branch-free unsigned
/// comparison, and the key is 16 bytes instead of 24: a heap entry of the city
/// simulation fits in 32 bytes.
@usableFromInline
struct EventKey: Sendable {
    /// The priorities a key can hold.
    @usableFromInline static let priorities = -128...127
    /// Sequence numbers must stay below this (2⁵⁶, about 7 × 10¹⁶ events).
    @usableFromInline static let sequenceLimit: UInt64 = 1 << 56

    /// The time's bits, mapped so that unsigned order is numeric order (`orderedBits`).
    @usableFromInline var high: UInt64
    /// (priority + 128) << 56 | sequence.
    @usableFromInline var low: UInt64

    /// - Precondition: `priority` in ``priorities`` and `sequence` below ``sequenceLimit``
    ///   (``EventQueue`` checks the priority and throws before it gets here).
    @inlinable @inline(__always)
    init(time: Double, priority: Int, sequence: UInt64) {
        let order = UInt64(truncatingIfNeeded: priority &+ 128) << 56 | sequence
        // + 0 turns -0 into +0: the two are the same time, and must tie as they did before packing.
        high = Self.orderedBits(time + 0)
        low = order
    }

    /// A finite double's bits turned so that unsigned comparison agrees with numeric comparison:
    /// negative values have every bit flipped, others only the sign bit (so -0 sorts just below +0).
    @inlinable @inline(__always)
    static func orderedBits(_ time: Double) -> UInt64 {
        let bits = time.bitPattern
        return bits ^ (UInt64(bitPattern: Int64(bitPattern: bits) >> 63) | (1 << 63))
    }

    /// Simulation time in seconds. Finite.
    @inlinable
    var time: Double {
        let bits = high
        return Double(bitPattern: bits & (1 << 63) != 0 ? bits ^ (1 << 63) : ~bits)
    }

    /// Lower runs first among events at the same time.
    @inlinable
    var priority: Int { Int(low >> 56) - 128 }

    /// Position in scheduling order; breaks the remaining ties first-in, first-out.
    @inlinable
    var sequence: UInt64 { low & (Self.sequenceLimit - 1) }

    /// Whether `self` must run before `other`: (high, low) < (other.high, other.low) without a branch.
    /// The heap's sifts compare keys of random times, so a branching comparison mispredicts about
    /// half the time: measured on the city-scale loop, 2.03–2.07 s branch-free against 2.17–2.22 s
    /// with the (time, priority, sequence) comparison, and `EventQueue.removeFirst` 15.7 → 10.4 % of
    /// the samples. (`UInt128`'s `<` does the same but needs macOS 15; a borrow chain written with
    /// `subtractingReportingOverflow` and `||` compiled to branches and was slower than before.)
    @inlinable @inline(__always)
    func runsBefore(_ other: EventKey) -> Bool {
        // Each comparison as a 0/1 byte, combined with bit operations: `||` and `&&` would branch.
        let highBefore = unsafeBitCast(high < other.high, to: UInt8.self)
        let highEqual = unsafeBitCast(high == other.high, to: UInt8.self)
        let lowBefore = unsafeBitCast(low < other.low, to: UInt8.self)
        return highBefore | (highEqual & lowBefore) != 0
    }
}
