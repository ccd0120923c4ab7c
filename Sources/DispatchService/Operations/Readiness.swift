import NIOConcurrencyHelpers

/// Whether the service should be sent traffic: not while it drains for a shutdown, not while
/// its store does not answer or the host is rebuilding after a failed write.
///
/// Invariant: once `beginDraining()` is called the service stays not ready until the process ends.
public final class Readiness: Sendable {
    private let draining = NIOLockedValueBox(false)
    /// Longest wait for the store's answer before the check fails.
    let storeTimeout: Duration

    public init(storeTimeout: Duration = .seconds(2)) { self.storeTimeout = storeTimeout }

    /// From now on `/health/ready` answers 503 `shutting-down` (graceful shutdown has begun).
    public func beginDraining() { draining.withLockedValue { $0 = true } }

    public var isDraining: Bool { draining.withLockedValue { $0 } }

    /// Why the service is not ready, or nil when it is.
    func problem(of host: DispatchHost) async -> Problem? {
        if isDraining { return Problem(.serviceUnavailable, "shutting-down", detail: "the service is shutting down") }
        let failure = await storeFailure(of: host)
        return failure.map { Problem(.serviceUnavailable, "store-unavailable", detail: $0) }
    }

    /// Why the store check failed, or nil; answers within `storeTimeout` even when the store hangs and
    /// ignores cancellation (the check then goes on, unawaited, in a task of its own).
    private func storeFailure(of host: DispatchHost) async -> String? {
        let timeout = storeTimeout
        let waiting = NIOLockedValueBox<CheckedContinuation<String?, Never>?>(nil)
        @Sendable func answer(_ failure: String?) {
            waiting.withLockedValue { continuation in
                continuation?.resume(returning: failure)
                continuation = nil
            }
        }
        return await withCheckedContinuation { continuation in
            waiting.withLockedValue { $0 = continuation }
            let timer = Task {
                try await Task.sleep(for: timeout)
                answer("the store did not answer within \(timeout)")
            }
            Task {
                do { try await host.checkStore(); answer(nil) } catch { answer("\(error)") }
                timer.cancel()
            }
        }
    }
}
