import Synchronization

/// `CheckpointStore` in memory (tests): checkpoints by sequence.
extension InMemoryDispatchStore {
    public func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws {
        checkpoints.withLock { $0[checkpoint.sequence] = checkpoint }
    }

    public func latestCheckpoint() async throws -> StoredCheckpoint? {
        checkpoints.withLock { table in table.keys.max().flatMap { table[$0] } }
    }

    public func truncateLog(through sequence: Int64) async throws {
        dropLog(through: sequence)
        checkpoints.withLock { table in table = table.filter { $0.key >= sequence } }
    }
}
