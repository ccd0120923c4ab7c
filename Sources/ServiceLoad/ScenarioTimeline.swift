import Foundation

/// The mapping between the scenario's simulated seconds and the wall clock for a
/// run at `speed` simulated seconds per real second, and the service-clock time
/// that simulated second 0 corresponds to.
///
/// Invariant: `instant(of: t)` = start + t / speed; `serviceTime(of: t)` = serviceStart + t
/// (the service runs `clock_speed` = `speed`).
public struct ScenarioTimeline: Sendable {
    public let speed: Double
    public let start: ContinuousClock.Instant
    /// The service clock's reading (seconds since 1970) at simulated second 0.
    public let serviceStart: Double

    public init(speed: Double, start: ContinuousClock.Instant = .now, serviceStart: Double) {
        precondition(speed > 0)
        self.speed = speed
        self.start = start
        self.serviceStart = serviceStart
    }

    public func instant(of simulated: Double) -> ContinuousClock.Instant {
        start + .nanoseconds(Int64((simulated / speed * 1e9).rounded()))
    }

    /// Simulated seconds since the start, now.
    public var now: Double {
        let elapsed = ContinuousClock.now - start
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) * speed
    }

    public func serviceTime(of simulated: Double) -> Double { serviceStart + simulated }

    /// Sleeps until simulated second `t` (at once if it is past).
    public func sleep(until t: Double) async {
        try? await Task.sleep(until: instant(of: t), clock: .continuous)
    }

    /// Sleeps `seconds` of simulated time.
    public func sleep(simulated seconds: Double) async {
        guard seconds > 0, seconds.isFinite else { return }
        try? await Task.sleep(for: .nanoseconds(Int64(seconds / speed * 1e9)))
    }
}
