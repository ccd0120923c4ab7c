/// A SimPy-small driver: a clock, the pending events, and `step` / `run`.
///
/// The simulator knows only *now*, *schedule*, *peek*, *step* and *run*; what
/// an event means is up to the handler, which receives the simulator `inout`
/// so it can read ``now`` and schedule follow-up events.
///
/// Invariants: those of ``EventQueue`` — ``now`` never decreases and every
/// pending event is at or after ``now``. A real-time or accelerated mode is
/// an adapter that paces calls to ``step(_:)``, not a second engine.
///
/// ```swift
/// var sim = Simulator<Ping>()
/// try sim.schedule(.ping, at: 1)
/// try sim.run(until: 10) { sim, event in
///     try sim.schedule(.ping, after: 1)
/// }
/// // sim.now == 10; the pings at 1 ... 9 ran.
/// ```
public struct Simulator<Event> {
    /// The pending events; the host may also drive it directly.
    public var queue: EventQueue<Event>

    /// Creates a simulator with no pending events, its clock at `startTime`.
    public init(startTime: Double = 0) {
        queue = EventQueue(startTime: startTime)
    }

    /// The current simulation time in seconds.
    @inlinable
    public var now: Double { queue.now }

    /// The time of the next event, or `nil` when none is pending.
    @inlinable
    public var peekTime: Double? { queue.peekTime }

    /// Schedules `event` at absolute time `time`. See ``EventQueue/schedule(_:at:priority:)``.
    ///
    /// - Throws: ``EventEngineError`` for times in the past, NaN or infinite.
    /// - Complexity: O(log n)
    @inlinable
    public mutating func schedule(_ event: Event, at time: Double, priority: Int = 0) throws(EventEngineError) {
        try queue.schedule(event, at: time, priority: priority)
    }

    /// Schedules `event` `delay` seconds from ``now``.
    ///
    /// - Throws: ``EventEngineError`` for negative delays, NaN or infinite.
    /// - Complexity: O(log n)
    @inlinable
    public mutating func schedule(_ event: Event, after delay: Double, priority: Int = 0) throws(EventEngineError) {
        try queue.schedule(event, after: delay, priority: priority)
    }

    /// Pops the next event, advances the clock to it and hands it to `handle`.
    ///
    /// - Returns: `false` when no event was pending.
    /// - Throws: whatever `handle` throws; the event is consumed either way.
    /// - Complexity: O(log n) plus the handler.
    @inlinable @discardableResult
    public mutating func step<Failure: Error>(
        _ handle: (inout Simulator, Event) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        guard let (_, event) = queue.popNext() else { return false }
        try handle(&self, event)
        return true
    }

    /// Runs every event strictly before `endTime`, then sets the clock to `endTime`.
    ///
    /// As in SimPy, events at exactly `endTime` stay pending. With
    /// `endTime == .infinity` it runs until no event is left and leaves the
    /// clock at the last event.
    ///
    /// - Precondition: `endTime >= now` and not NaN.
    /// - Returns: the number of events handled.
    /// - Throws: whatever `handle` throws; the clock then stays at the failing event.
    /// - Complexity: O(k log n) for k events handled, plus the handlers.
    @inlinable @discardableResult
    public mutating func run<Failure: Error>(
        until endTime: Double = .infinity,
        _ handle: (inout Simulator, Event) throws(Failure) -> Void
    ) throws(Failure) -> Int {
        precondition(endTime >= now, "run(until: \(endTime)) is before now (\(now))")
        var handled = 0
        while let next = queue.peekTime, next < endTime {
            try step(handle)
            handled &+= 1
        }
        if endTime.isFinite { queue.advanceClock(to: endTime) }
        return handled
    }
}

extension Simulator: Sendable where Event: Sendable {}
