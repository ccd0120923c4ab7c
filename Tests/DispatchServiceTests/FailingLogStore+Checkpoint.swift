@testable import DispatchService

/// `FailingLogStore` keeps checkpoints like the in-memory store it wraps.
extension FailingLogStore {
    func commands(after sequence: Int64) async throws -> [LoggedCommand] { try await base.commands(after: sequence) }
    func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws { try await base.saveCheckpoint(checkpoint) }
    func latestCheckpoint() async throws -> StoredCheckpoint? { try await base.latestCheckpoint() }
    func truncateLog(through sequence: Int64) async throws { try await base.truncateLog(through: sequence) }
}
