import Foundation
import GRDB

/// `CheckpointStore` on SQLite: table `checkpoint` (migration `v3`), one row per checkpoint, the bytes a BLOB.
///
/// Space: the rows `truncateLog` deletes go to SQLite's freelist, and later inserts (log rows, the next
/// checkpoint, archived rides) take their pages from it before the file grows. So the file levels off
/// at its high-water mark (about two checkpoints plus the log between two checkpoints plus the archive)
/// instead of growing with the log. Chosen over `auto_vacuum = INCREMENTAL`: that mode must be set
/// before the first table is created or by a full `VACUUM` (a rewrite of the whole file, a 1.6 GiB file
/// for the 1-hour soak), and giving pages back to the file system only for the next checkpoint period to
/// take them again would gain nothing. Shrink a file once by hand with `VACUUM` when the service is stopped.
extension SQLiteDispatchStore {
    /// Log rows deleted per transaction, so a truncation never holds the writer long (commands keep committing between
    /// chunks). 20,000 held it ~50 ms a chunk at 5,000 rides/s, which the rides committing behind it waited; 2,000 hold it a few ms.
    static let truncationChunk: Int64 = 2_000

    static func registerCheckpoints(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE checkpoint (sequence INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        }
    }

    public func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO checkpoint (sequence, bytes) VALUES (?, ?)",
                           arguments: [checkpoint.sequence, Data(checkpoint.bytes)])
        }
    }

    public func latestCheckpoint() async throws -> StoredCheckpoint? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT sequence, bytes FROM checkpoint ORDER BY sequence DESC LIMIT 1").map { row in
                let bytes: Data = row["bytes"]
                return StoredCheckpoint(sequence: row["sequence"], bytes: [UInt8](bytes))
            }
        }
    }

    public func truncateLog(through sequence: Int64) async throws {
        let first = try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(sequence) FROM command_log")
        }
        var below = first ?? sequence + 1
        while below <= sequence {
            let upTo = min(sequence, below + Self.truncationChunk - 1)
            try await database.write { db in
                try db.execute(sql: "DELETE FROM command_log WHERE sequence <= ?", arguments: [upTo])
            }
            below = upTo + 1
        }
        try await database.write { db in
            try db.execute(sql: "DELETE FROM checkpoint WHERE sequence < ?", arguments: [sequence])
        }
    }
}
