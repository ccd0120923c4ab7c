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
        let timeout = storeTimeout
        let failure: String? = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do { try await host.checkStore(); return nil } catch { return "\(error)" }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : "the store did not answer within \(timeout)"
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        return failure.map { Problem(.serviceUnavailable, "store-unavailable", detail: $0) }
    }
}
