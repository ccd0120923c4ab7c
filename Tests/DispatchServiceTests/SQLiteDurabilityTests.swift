import Foundation
import Testing
@testable import DispatchService

/// What "stored before the reply" means on the embedded engine: every commit syncs the WAL.
@Suite struct SQLiteDurabilityTests {
    /// GRDB's DatabasePool sets `synchronous = NORMAL` on its writer after `prepareDatabase`; NORMAL
    /// loses the last commits on a power cut. The store must put FULL back on the connection that writes.
    @Test func theWriterSyncsEveryCommit() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("citysim-durability-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteDispatchStore(path: path)
        #expect(try store.writerSynchronousLevel() == 2)  // 2 = FULL
    }
}
