/// Why the engine refused to schedule an event.
///
/// Invariant: an error is thrown before the queue changes, so a refused call
/// leaves every pending event and the clock exactly as they were.
public enum EventEngineError: Error, Equatable, Sendable {
    /// The requested time lies before the current simulation time.
    case scheduledInThePast(time: Double, now: Double)
    /// The requested time is NaN or infinite, so it cannot be ordered.
    case invalidTime(Double)
    /// The priority lies outside -128 through 127, the range an event key holds.
    case priorityOutOfRange(Int)
}

extension EventEngineError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .scheduledInThePast(time, now):
            "cannot schedule an event at t=\(time) s: the clock is already at t=\(now) s"
        case let .invalidTime(time):
            "cannot schedule an event at t=\(time) s: the time must be a finite number"
        case let .priorityOutOfRange(priority):
            "cannot schedule an event with priority \(priority): priorities run from -128 through 127"
        }
    }
}
