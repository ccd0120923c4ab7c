import Synchronization

/// The measurements of a load run, one `EndpointStats` per endpoint, shared by
/// every client task.
///
/// Invariant: each call is recorded exactly once, under its route template
/// (`GET /v1/rides/{id}`, never the concrete id), so endpoints stay few.
///
/// ```swift
/// let recorder = LatencyRecorder()
/// recorder.record("POST /v1/rides", microseconds: 850, status: 201)
/// let report = LoadReport(mode: "burst", seconds: 30, endpoints: recorder.snapshot())
/// ```
public final class LatencyRecorder: Sendable {
    private let stats = Mutex<[String: EndpointStats]>([:])

    public init() {}

    public func record(_ endpoint: String, microseconds: UInt64, status: Int) {
        stats.withLock { $0[endpoint, default: EndpointStats()].record(microseconds: microseconds, status: status) }
    }

    /// Adds measurements taken elsewhere (a group of clients' own tally) to `endpoint`'s.
    public func merge(_ endpoint: String, _ other: EndpointStats) {
        stats.withLock { $0[endpoint, default: EndpointStats()].merge(other) }
    }

    /// A copy of everything measured so far.
    public func snapshot() -> [String: EndpointStats] { stats.withLock { $0 } }

    /// Forgets everything (after a warm-up).
    public func reset() { stats.withLock { $0.removeAll() } }
}
