import Histogram

/// What was measured of one endpoint (method + route template, e.g. `POST /v1/rides`):
/// an HDR histogram of the latencies of every answered call, in microseconds, and the
/// calls by HTTP status (0 for a transport failure: no answer at all).
///
/// Invariant: `histogram.totalCount` equals the number of calls that got an answer;
/// `statuses` counts every call, answered or not.
public struct EndpointStats: Sendable {
    /// Latencies in microseconds, 1 µs to 10 min, three significant digits.
    public var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000,
                                             numberOfSignificantValueDigits: .three)
    /// Calls by HTTP status; 0 means no answer (connection refused, reset, timed out).
    public var statuses: [Int: Int] = [:]

    public init() {}

    /// Records one call.
    /// - Parameters:
    ///   - microseconds: from sending the request to the last byte of the answer (ignored when `status` is 0).
    ///   - status: the HTTP status, or 0 for a transport failure.
    public mutating func record(microseconds: UInt64, status: Int) {
        statuses[status, default: 0] += 1
        if status != 0 { _ = histogram.record(max(1, min(microseconds, histogram.highestTrackableValue))) }
    }

    /// Adds another endpoint's measurements (from another client task or run).
    public mutating func merge(_ other: EndpointStats) {
        histogram.add(other.histogram)
        for (status, count) in other.statuses { statuses[status, default: 0] += count }
    }

    /// Every call, answered or not.
    public var calls: Int { statuses.values.reduce(0, +) }

    /// Calls answered with a status of 400 or more, or not answered at all.
    public var errors: [Int: Int] { statuses.filter { $0.key >= 400 || $0.key == 0 } }
}
