import Testing
@testable import DispatchService

/// `ExportRetryPolicy`: which failed exports are tried again, and after how long.
@Suite struct ExportRetryPolicyTests {
    let policy = ExportRetryPolicy(maxAttempts: 5, initialBackoff: .seconds(1), maxBackoff: .seconds(5))

    func delay(_ failure: ExportRetryPolicy.Failure, attempt: Int = 1, remaining: Duration = .seconds(60),
               jitter: Double = 0.5) -> Duration? {
        policy.delay(after: failure, attempt: attempt, remaining: remaining, jitter: jitter)
    }

    @Test func onlyThrottlingUnavailabilityAndNoAnswerAreTriedAgain() {
        for status in [429, 502, 503, 504] { #expect(delay(.status(status, retryAfter: nil)) != nil, "\(status)") }
        #expect(delay(.noAnswer) != nil)
        for status in [400, 401, 403, 404, 408, 413, 415, 500, 501, 505] {
            #expect(delay(.status(status, retryAfter: nil)) == nil, "\(status) is not retried")
        }
    }

    @Test func theBackoffDoublesUpToItsCapAndTheJitterKeepsHalfToAllOfIt() {
        #expect(delay(.noAnswer, attempt: 1, jitter: 0) == .milliseconds(500))
        #expect(delay(.noAnswer, attempt: 1, jitter: 1) == .seconds(1))
        #expect(delay(.noAnswer, attempt: 2, jitter: 1) == .seconds(2))
        #expect(delay(.noAnswer, attempt: 3, jitter: 1) == .seconds(4))
        #expect(delay(.noAnswer, attempt: 4, jitter: 1) == .seconds(5), "capped at maxBackoff")
        #expect(delay(.noAnswer, attempt: 4, jitter: 0) == .milliseconds(2500))
        #expect(delay(.noAnswer, attempt: 2, jitter: 0.5) == .milliseconds(1500))
    }

    @Test func retryAfterSecondsAreWaitedAsGiven() {
        #expect(delay(.status(429, retryAfter: .seconds(3)), jitter: 0) == .seconds(3))
        #expect(delay(.status(503, retryAfter: .seconds(7)), attempt: 4, jitter: 1) == .seconds(7))
        #expect(ExportRetryPolicy.retryAfter(" 12 ") == .seconds(12))
        #expect(ExportRetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == nil && ExportRetryPolicy.retryAfter("-1") == nil)
    }

    @Test func noAttemptIsMadePastTheLimitOrTheDeadline() {
        #expect(delay(.noAnswer, attempt: 4) != nil)
        #expect(delay(.noAnswer, attempt: 5) == nil, "5 attempts at most")
        #expect(delay(.status(429, retryAfter: .seconds(30)), remaining: .seconds(10)) == nil, "Retry-After past the deadline")
        #expect(delay(.noAnswer, attempt: 3, remaining: .seconds(1), jitter: 0) == nil, "a 2 s backoff with 1 s left")
        #expect(delay(.noAnswer, remaining: .zero) == nil)
    }
}
