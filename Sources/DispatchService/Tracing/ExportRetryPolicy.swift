import Foundation

/// When `OTLPExporter` tries a batch again, and after how long. As the OTLP/HTTP specification says: after a 429,
/// 502, 503 or 504 answer, or when no answer came (connection refused or dropped, no response in time), and never
/// after any other status; after the answer's `Retry-After` seconds when it gives them, else after an exponential
/// backoff with jitter (`initialBackoff`, doubling up to `maxBackoff`, each wait between half and all of it).
///
/// Invariant: at most `maxAttempts` attempts a batch; a wait never reaches past the batch's deadline (a retry
/// that could not start in time is not made), so one batch's export takes at most the export timeout.
///
/// ```swift
/// let policy = ExportRetryPolicy()
/// policy.delay(after: .status(503, retryAfter: nil), attempt: 1, remaining: .seconds(9), jitter: 0.5)  // 0.75 s
/// policy.delay(after: .status(400, retryAfter: nil), attempt: 1, remaining: .seconds(9), jitter: 0.5)  // nil
/// ```
public struct ExportRetryPolicy: Sendable, Equatable {
    /// Attempts a batch gets at most, the first included (≥ 1).
    public var maxAttempts: Int
    /// The backoff before the second attempt, before jitter (> 0).
    public var initialBackoff: Duration
    /// The longest backoff, before jitter (≥ `initialBackoff`).
    public var maxBackoff: Duration

    /// Statuses a collector answers when it may take the batch later: throttled (429) or unavailable (502, 503, 504).
    public static let retryableStatuses: Set<Int> = [429, 502, 503, 504]

    public init(maxAttempts: Int = 5, initialBackoff: Duration = .seconds(1), maxBackoff: Duration = .seconds(5)) {
        precondition(maxAttempts >= 1 && initialBackoff > .zero && maxBackoff >= initialBackoff, "a usable retry policy")
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// Why one attempt to export a batch failed.
    public enum Failure: Error, Sendable {
        /// The collector answered this non-2xx status, asking (`Retry-After`) to wait this long first, or not.
        case status(Int, retryAfter: Duration?)
        /// No answer: the connection failed, was dropped, or the answer did not come in time.
        case noAnswer

        /// The `reason` label of `citysim_span_export_retries_total`: `http_503`, …, or `connection`.
        var reason: String {
            switch self {
            case .status(let status, _): "http_\(status)"
            case .noAnswer: "connection"
            }
        }
    }

    /// The wait before trying again after attempt number `attempt` (1 = the first) failed with `failure`;
    /// nil to give the batch up.
    /// - Parameters:
    ///   - remaining: time left until the batch's deadline.
    ///   - jitter: a random fraction in [0, 1): the backoff is scaled to `0.5 + jitter / 2` of itself.
    public func delay(after failure: Failure, attempt: Int, remaining: Duration, jitter: Double) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let wait: Duration
        switch failure {
        case .status(let status, let retryAfter):
            guard Self.retryableStatuses.contains(status) else { return nil }
            wait = retryAfter ?? backoff(before: attempt + 1, jitter: jitter)
        case .noAnswer:
            wait = backoff(before: attempt + 1, jitter: jitter)
        }
        return wait < remaining ? wait : nil
    }

    /// `initialBackoff × 2^(attempt − 2)`, at most `maxBackoff`, scaled by the jitter.
    private func backoff(before attempt: Int, jitter: Double) -> Duration {
        var backoff = initialBackoff
        for _ in 2..<attempt where backoff < maxBackoff { backoff *= 2 }
        return min(backoff, maxBackoff) * (0.5 + min(max(jitter, 0), 1) / 2)
    }

    /// The seconds of a `Retry-After` header (delta-seconds; an HTTP date is not read: nil).
    static func retryAfter(_ header: String?) -> Duration? {
        guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return .seconds(seconds)
    }
}
