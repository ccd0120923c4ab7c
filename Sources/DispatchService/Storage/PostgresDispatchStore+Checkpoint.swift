import PostgresNIO

/// `CheckpointStore` on PostgreSQL: table `checkpoint` (migration `v3`), one row per checkpoint, the bytes a BYTEA.
/// Deleted rows' space is reused by later rows once autovacuum has marked it free (PostgreSQL's own
/// housekeeping; no `VACUUM FULL`, which would lock the table).
extension PostgresDispatchStore {
    static let checkpointMigration: PostgresMigrator.Migration = ("v3", [
        "CREATE TABLE checkpoint (sequence BIGINT PRIMARY KEY, bytes BYTEA NOT NULL)",
    ])

    public func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws {
        try await client.query("""
            INSERT INTO checkpoint (sequence, bytes) VALUES (\(checkpoint.sequence), \(ByteBuffer(bytes: checkpoint.bytes)))
            ON CONFLICT (sequence) DO UPDATE SET bytes = EXCLUDED.bytes
            """, logger: logger)
    }

    public func latestCheckpoint() async throws -> StoredCheckpoint? {
        let rows = try await client.query("SELECT sequence, bytes FROM checkpoint ORDER BY sequence DESC LIMIT 1", logger: logger)
        for try await (sequence, bytes) in rows.decode((Int64, ByteBuffer).self) {
            return StoredCheckpoint(sequence: sequence, bytes: Array(bytes.readableBytesView))
        }
        return nil
    }

    /// Deletes the log rows in chunks of `SQLiteDispatchStore.truncationChunk` sequence numbers, each its own statement.
    public func truncateLog(through sequence: Int64) async throws {
        var first: Int64?
        for try await minimum in try await client.query("SELECT MIN(sequence) FROM command_log", logger: logger)
            .decode(Int64?.self) { first = minimum }
        var below = first ?? sequence + 1
        while below <= sequence {
            let upTo = min(sequence, below + SQLiteDispatchStore.truncationChunk - 1)
            try await client.query("DELETE FROM command_log WHERE sequence <= \(upTo)", logger: logger)
            below = upTo + 1
        }
        try await client.query("DELETE FROM checkpoint WHERE sequence < \(sequence)", logger: logger)
    }
}
