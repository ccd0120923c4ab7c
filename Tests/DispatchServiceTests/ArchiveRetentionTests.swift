import DispatchCore
import GRDB
import Testing
@testable import DispatchService

/// The archive deletes rides by their end and keeps counting them.
@Suite struct ArchiveRetentionTests {
    @Test(arguments: StoreEngine.embedded)
    func retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(_ engine: StoreEngine) async throws {
        try await StoreContract.retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(engine)
    }
}

/// The same on PostgreSQL; skipped unless `CITYSIM_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: StoreEngine.postgresURL != nil, StoreEngine.postgresSkipReason))
struct PostgresArchiveRetentionTests {
    @Test func retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts() async throws {
        try await StoreContract.retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(.postgres)
    }
}

/// Rows archived before `ended_at` existed get the later of their request and meeting time.
@Suite struct ArchiveEndUpgradeTests {
    @Test func upgradingAFileGivesOldRowsTheirRequestOrMeetingTimeAsTheirEnd() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("service.sqlite")
        let requested = StoreContract.ended(1, customer: 7, .completed, code: "TX-1")  // requested at 1,700,000,000.125
        let reserved = StoreContract.ended(2, customer: 7, .expired)                   // meeting at 1,700,010,000
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteDispatchStore.migrator.migrate(queue, upTo: "v4")
            try await queue.write { db in
                for ride in [requested, reserved] {
                    try db.execute(sql: "INSERT INTO archived_ride (id, customer, status, ride) VALUES (?, 7, ?, ?)",
                                   arguments: [ride.id.rawValue, ArchivedRideRow.name(ride.status), try ArchivedRideRow.json(ride)])
                }
            }
        }
        let store = try SQLiteDispatchStore(path: path)
        #expect(try await store.deleteArchivedRides(endedBefore: 1_700_000_000.125) == 0)
        #expect(try await store.deleteArchivedRides(endedBefore: 1_700_009_999) == 1)
        #expect(try await store.archivedRide(RequestID(2)) == reserved)
        #expect(try await store.deleteArchivedRides(endedBefore: 1_700_010_001) == 1)
    }
}
