import Foundation
import GRDB

/// `CheckpointStore` on SQLite: table `checkpoint` (migration `v3`), one row per checkpoint. Since migration `v6`
/// its bytes are stored in parts of `checkpointPart` bytes in `checkpoint_part`, each part its own transaction,
/// and the `checkpoint` row (`parts` = their count, `bytes` empty) is written last, in one transaction: that row
/// is what makes the checkpoint visible, so a crash before it leaves parts that no row names, and the next
/// truncation deletes them. (A row with `parts` 0 holds its bytes itself: a checkpoint stored before `v6`.)
/// One 8.8 MB BLOB held SQLite's only writer 140 ms at 5,000 rides/s, and every ride committing meanwhile
/// waited behind it: the p99. A part holds it a few ms.
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

    /// Bytes per part of a stored checkpoint.
    static let checkpointPart = 256 << 10

    static func registerCheckpoints(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "CREATE TABLE checkpoint (sequence INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        }
    }

    static func registerCheckpointParts(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                ALTER TABLE checkpoint ADD COLUMN parts INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE checkpoint_part (sequence INTEGER NOT NULL, part INTEGER NOT NULL, bytes BLOB NOT NULL,
                                              PRIMARY KEY (sequence, part));
                """)
        }
    }

    public func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws {
        let parts = try await writeCheckpointParts(checkpoint)
        try await database.write { db in
            try db.execute(sql: "DELETE FROM checkpoint_part WHERE sequence = ? AND part >= ?", arguments: [checkpoint.sequence, parts])
            try db.execute(sql: "INSERT OR REPLACE INTO checkpoint (sequence, bytes, parts) VALUES (?, x'', ?)",
                           arguments: [checkpoint.sequence, parts])
        }
    }

    /// Stores the checkpoint's bytes in parts, one transaction each, not yet visible; returns their count.
    func writeCheckpointParts(_ checkpoint: StoredCheckpoint) async throws -> Int {
        let starts = Array(stride(from: 0, to: checkpoint.bytes.count, by: Self.checkpointPart))
        for (part, start) in starts.enumerated() {
            let bytes = Data(checkpoint.bytes[start..<min(start + Self.checkpointPart, checkpoint.bytes.count)])
            try await database.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO checkpoint_part (sequence, part, bytes) VALUES (?, ?, ?)",
                               arguments: [checkpoint.sequence, part, bytes])
            }
        }
        return starts.count
    }

    /// - Throws: `StoreError.corruptCheckpoint` when the newest checkpoint's parts are not all stored.
    public func latestCheckpoint() async throws -> StoredCheckpoint? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT sequence, bytes, parts FROM checkpoint ORDER BY sequence DESC LIMIT 1")
            else { return nil }
            let sequence: Int64 = row["sequence"], parts: Int = row["parts"]
            guard parts > 0 else {
                let bytes: Data = row["bytes"]
                return StoredCheckpoint(sequence: sequence, bytes: [UInt8](bytes))
            }
            var bytes: [UInt8] = []
            var next = 0
            for part in try Row.fetchAll(db, sql: "SELECT part, bytes FROM checkpoint_part WHERE sequence = ? AND part < ? ORDER BY part",
                                         arguments: [sequence, parts]) {
                guard part["part"] as Int == next else { break }
                bytes += [UInt8](part["bytes"] as Data)
                next += 1
            }
            guard next == parts else {
                throw StoreError.corruptCheckpoint(sequence: sequence, reason: "it has \(parts) parts, \(next) of them stored in order")
            }
            return StoredCheckpoint(sequence: sequence, bytes: bytes)
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
            try db.execute(sql: "DELETE FROM checkpoint_part WHERE sequence < ?", arguments: [sequence])
        }
    }
}
