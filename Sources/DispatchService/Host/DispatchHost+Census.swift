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

extension HostCensus {
    /// Two id-sorted lists as one, a ride in both (held while being archived) once, as held.
    static func merge(_ held: [ArchivedState],
                      _ archived: [ArchivedState]) -> [ArchivedState] {
        var merged: [ArchivedState] = []
        merged.reserveCapacity(held.count + archived.count)
        var i = 0, j = 0
        while i < held.count || j < archived.count {
            if j == archived.count || (i < held.count && held[i].id <= archived[j].id) {
                if j < archived.count, held[i].id == archived[j].id { j += 1 }
                merged.append(held[i])
                i += 1
            } else {
                merged.append(archived[j])
                j += 1
            }
        }
        return merged
    }
}
