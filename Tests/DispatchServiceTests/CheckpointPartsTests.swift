import Foundation
import GRDB
import Testing
@testable import DispatchService

/// SQLite stores a checkpoint in parts, each its own transaction, and makes it visible with its row last.
struct CheckpointPartsTests {
    static func withStore(_ body: (SQLiteDispatchStore) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(try SQLiteDispatchStore(path: folder.appendingPathComponent("service.sqlite").path))
    }

    static func checkpoint(_ sequence: Int64, parts: Double) -> StoredCheckpoint {
        let count = Int(Double(SQLiteDispatchStore.checkpointPart) * parts)
        return StoredCheckpoint(sequence: sequence, bytes: (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(sequence)) })
    }

    static func partRows(_ store: SQLiteDispatchStore) async throws -> [Int64] {
        try await store.database.read { db in try Int64.fetchAll(db, sql: "SELECT sequence FROM checkpoint_part ORDER BY sequence, part") }
    }

    @Test func aCheckpointLargerThanAPartIsStoredInPartsAndReadBackWhole() async throws {
        try await Self.withStore { store in
            let big = Self.checkpoint(10, parts: 2.5)
            try await store.saveCheckpoint(big)
            #expect(try await Self.partRows(store) == [10, 10, 10])
            #expect(try await store.latestCheckpoint() == big)
            let small = Self.checkpoint(11, parts: 0.01)
            try await store.saveCheckpoint(small)
            #expect(try await store.latestCheckpoint() == small)
        }
    }

    @Test func partsWrittenWithoutTheirRowLeaveThePreviousCheckpointAndTheNextTruncationDeletesThem() async throws {
        try await Self.withStore { store in
            let first = Self.checkpoint(10, parts: 1.5)
            try await store.saveCheckpoint(first)
            _ = try await store.writeCheckpointParts(Self.checkpoint(20, parts: 3.2))  // a crash before its row
            #expect(try await store.latestCheckpoint() == first)
            let third = Self.checkpoint(30, parts: 1.2)
            try await store.saveCheckpoint(third)
            try await store.truncateLog(through: 30)
            #expect(try await Self.partRows(store) == [30, 30])
            #expect(try await store.latestCheckpoint() == third)
        }
    }

    @Test func aCheckpointSavedAgainWithFewerPartsKeepsNoneOfTheOldOnes() async throws {
        try await Self.withStore { store in
            try await store.saveCheckpoint(Self.checkpoint(10, parts: 3.5))
            let again = Self.checkpoint(10, parts: 1.5)
            try await store.saveCheckpoint(again)
            #expect(try await Self.partRows(store) == [10, 10])
            #expect(try await store.latestCheckpoint() == again)
        }
    }

    @Test func aCheckpointStoredWholeBeforePartsIsStillRead() async throws {
        try await Self.withStore { store in
            try await store.database.write { db in
                try db.execute(sql: "INSERT INTO checkpoint (sequence, bytes) VALUES (7, ?)", arguments: [Data([1, 2, 3])])
            }
            #expect(try await store.latestCheckpoint() == StoredCheckpoint(sequence: 7, bytes: [1, 2, 3]))
        }
    }

    @Test func aMissingPartIsAnErrorNotAShortCheckpoint() async throws {
        try await Self.withStore { store in
            try await store.saveCheckpoint(Self.checkpoint(10, parts: 2.5))
            try await store.database.write { db in try db.execute(sql: "DELETE FROM checkpoint_part WHERE part = 1") }
            await #expect(throws: StoreError.corruptCheckpoint(sequence: 10, reason: "it has 3 parts, 1 of them stored in order")) {
                _ = try await store.latestCheckpoint()
            }
        }
    }
}
