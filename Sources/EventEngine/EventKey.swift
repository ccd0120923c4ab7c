/// The ordering key of one pending event: time, then priority, then the
/// sequence number given at scheduling.
///
/// Sequence numbers are unique within a queue, so two keys of one queue are
/// never equal and the order of pending events is total: it never depends on
/// where the heap happens to keep them.
@usableFromInline
struct EventKey: Sendable {
    /// Simulation time in seconds. Finite.
    @usableFromInline var time: Double
    /// Lower runs first among events at the same time.
    @usableFromInline var priority: Int
    /// Position in scheduling order; breaks the remaining ties first-in, first-out.
    @usableFromInline var sequence: UInt64

    @inlinable @inline(__always)
    init(time: Double, priority: Int, sequence: UInt64) {
        self.time = time
        self.priority = priority
        self.sequence = sequence
    }

    /// Whether `self` must run before `other`.
    @inlinable @inline(__always)
    func runsBefore(_ other: EventKey) -> Bool {
        if time != other.time { return time < other.time }
        if priority != other.priority { return priority < other.priority }
        return sequence < other.sequence
    }
}
