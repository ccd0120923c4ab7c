/// The ordering key of one pending event: time, then priority, then the
/// sequence number given at scheduling, packed into one 16-byte integer so that
/// a comparison is a single branch-free 128-bit compare and the four children
/// of a heap node share one cache line.
///
/// Sequence numbers are unique within a queue, so two keys of one queue are
/// never equal and the order of pending events is total: it never depends on
/// where the heap happens to keep them.
///
/// Invariant: the high 64 bits of `packed` are the time's IEEE-754 bits mapped
/// to an unsigned integer of the same order (negative times flipped, positive
/// times with the sign bit set; -0 is stored as +0); the low 64 bits hold the
/// priority, offset to unsigned, in their top 16 bits and the sequence number
/// in their low 48. So `packed < other.packed` exactly when the event runs first.
@usableFromInline
struct EventKey: Sendable {
    @usableFromInline var packed: UInt128

    /// Priorities an event may have.
    @usableFromInline static let priorities = Int(Int16.min)...Int(Int16.max)
    /// Sequence numbers a queue can give out (2⁴⁸, more than any run schedules).
    @usableFromInline static let sequenceLimit: UInt64 = 1 << 48
    @usableFromInline static let signBit: UInt64 = 1 << 63

    /// - Precondition: `time` is finite, `priority` in ``priorities``, `sequence` below ``sequenceLimit``.
    @inlinable @inline(__always)
    init(time: Double, priority: Int, sequence: UInt64) {
        let bits = (time + 0.0).bitPattern  // -0 + 0 is +0: both zeros get one key
        let orderedTime = bits & Self.signBit == 0 ? bits | Self.signBit : ~bits
        let offsetPriority = UInt64(UInt16(bitPattern: Int16(truncatingIfNeeded: priority)) ^ 0x8000)
        packed = UInt128(orderedTime) << 64 | UInt128(offsetPriority << 48 | sequence)
    }

    /// Simulation time in seconds.
    @inlinable
    var time: Double {
        let orderedTime = UInt64(truncatingIfNeeded: packed >> 64)
        return Double(bitPattern: orderedTime & Self.signBit != 0 ? orderedTime & ~Self.signBit : ~orderedTime)
    }

    /// Position in scheduling order.
    @inlinable
    var sequence: UInt64 { UInt64(truncatingIfNeeded: packed) & (Self.sequenceLimit - 1) }

    /// Lower runs first among events at the same time.
    @inlinable
    var priority: Int { Int(Int16(bitPattern: UInt16(truncatingIfNeeded: packed >> 48) ^ 0x8000)) }

    /// Whether `self` must run before `other`.
    @inlinable @inline(__always)
    func runsBefore(_ other: EventKey) -> Bool { packed < other.packed }
}
