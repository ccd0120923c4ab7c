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
    /// Clock seconds per real second (1 for the wall clock): the timer loop sleeps
    /// `clock seconds / rate` of real time.
    var rate: Double { get }
}

extension ServiceClock {
    public var rate: Double { 1 }
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

/// The wall clock run faster (or slower) by a constant factor, for load tests that
/// play a scenario's hours in minutes: offer timeouts (D4), MAD (D9) and
/// reservation allocation (D11) fall due `speed` times sooner in real time.
///
/// Invariant: `now() = reading + (wall - wallAtReading) × speed` for the last anchor;
/// re-anchoring (`resume(atLeast:)`) only moves the reading forward, so the clock never
/// runs backwards; `rate == speed > 0`.
///
/// ```swift
/// let clock = ScaledClock(speed: 60)          // one simulated minute per real second
/// clock.resume(atLeast: lastLoggedTime)       // after a restart: carry on from the log
/// ```
public final class ScaledClock: ServiceClock {
    public let speed: Double
    private let anchor: Mutex<(reading: Double, wall: Double)>
    private let wall: @Sendable () -> Double

    /// - Parameters:
    ///   - speed: clock seconds per real second (> 0, finite).
    ///   - wall: the underlying wall clock (tests inject one); the clock starts at its reading.
    public init(speed: Double, wall: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        precondition(speed > 0 && speed.isFinite, "a clock speed must be positive and finite")
        self.speed = speed
        self.wall = wall
        let start = wall()
        anchor = Mutex((start, start))
    }

    public func now() -> Double {
        let w = wall()
        return anchor.withLock { $0.reading + (w - $0.wall) * speed }
    }

    public var rate: Double { speed }

    /// Carries on from `time` if the clock reads less (a restarted service resumes from its
    /// last logged command instead of the wall clock, which a fast clock had run ahead of).
    public func resume(atLeast time: Double) {
        let w = wall()
        anchor.withLock { anchor in
            if anchor.reading + (w - anchor.wall) * speed < time { anchor = (time, w) }
        }
    }
}
