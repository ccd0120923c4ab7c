import DispatchCore

/// Every request the host knows with its state, the core's invariant violations and
/// the service clock's reading: what a load test compares with what it was told.
///
/// Invariant: `rides` holds each known request id once, sorted by id.
public struct HostCensus: Sendable {
    public var now: Double
    public var rides: [(id: RequestID, status: RequestStatus)]
    public var invariantViolations: [String]
    public var replayRefusals: Int
}

extension DispatchHost {
    /// - Complexity: O(n log n) in the requests held.
    public func census() -> HostCensus {
        HostCensus(now: max(clock.now(), core.now),
                   rides: core.allRequests.map { (id: $0.0, status: $0.1) }.sorted { $0.id.rawValue < $1.id.rawValue },
                   invariantViolations: core.invariantViolations(), replayRefusals: replayRefusals)
    }

    /// The core's time: the last command's (after a restart, where a scaled clock resumes).
    public var coreTime: Double { core.now }
}
