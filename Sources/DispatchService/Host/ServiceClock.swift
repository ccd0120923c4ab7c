import Foundation
import Synchronization

/// Where the service reads the time: seconds since 1970-01-01 UTC, the time
/// axis of the hosted `DispatchCore`. Injected so tests move time by hand.
///
/// ```swift
/// let clock = ManualClock(now: 1_000)
/// clock.advance(by: 61)   // an offer's minute is over
/// ```
public protocol ServiceClock: Sendable {
    /// The current time, seconds since 1970.
    func now() -> Double
}

/// The wall clock.
public struct SystemClock: ServiceClock {
    public init() {}
    public func now() -> Double { Date().timeIntervalSince1970 }
}

/// A clock that moves only when told: tests advance it and then ask the host
/// to fire the timers that became due.
public final class ManualClock: ServiceClock {
    private let time: Mutex<Double>

    public init(now: Double = 1_700_000_000) { time = Mutex(now) }

    public func now() -> Double { time.withLock { $0 } }

    /// Moves the clock forward by `seconds` (>= 0).
    public func advance(by seconds: Double) {
        precondition(seconds >= 0, "a clock does not run backwards")
        time.withLock { $0 += seconds }
    }
}
