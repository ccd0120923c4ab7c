import DispatchCore
import Testing
@testable import DispatchService

/// `archive_retain_days`: archived rides are deleted once they ended that long ago; the counts keep them.
@Suite struct ArchiveRetentionTests {
    @Test(arguments: StoreEngine.embedded)
    func retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(_ engine: StoreEngine) async throws {
        try await StoreContract.retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(engine)
    }

    @Test(arguments: StoreEngine.embedded)
    func archivedRidesPastTheRetentionAreDeletedOnceACheckpointLeftThemOut(_ engine: StoreEngine) async throws {
        try await StoreContract.archivedRidesPastTheRetentionAreDeletedOnceACheckpointLeftThemOut(engine)
    }

    @Test(arguments: StoreEngine.embedded) func retentionSparesRidesTheNewestCheckpointHolds(_ engine: StoreEngine) async throws {
        try await StoreContract.retentionSparesRidesTheNewestCheckpointHolds(engine)
    }

    /// Without `archive_retain_days` nothing is ever deleted.
    @Test func withoutARetentionArchivedRidesAreKeptForEver() async throws {
        let (store, host, clock) = try await Self.archivedBusyDay(retention: nil)
        try await host.checkpoint()
        clock.advance(by: 10 * 365 * 86_400)
        #expect(try await host.deleteExpiredArchive() == 0)
        #expect(try await store.archivedStates(after: 0, limit: 10).count == 2)
    }

    /// Before the first checkpoint nothing is deleted, however old: a restart would replay the whole
    /// log and hold every ride again.
    @Test func withoutACheckpointNothingIsDeleted() async throws {
        let (store, host, clock) = try await Self.archivedBusyDay(retention: 3_600)
        clock.advance(by: 365 * 86_400)
        #expect(try await host.deleteExpiredArchive() == 0)
        #expect(try await store.archivedStates(after: 0, limit: 10).count == 2)
    }

    /// A host in memory after `RestartTests.busyDay` with its two ended rides archived, under `retention`.
    static func archivedBusyDay(retention: Double?) async throws -> (InMemoryDispatchStore, DispatchHost, ManualClock) {
        let clock = ManualClock()
        let store = InMemoryDispatchStore()
        let host = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        try await RestartTests.busyDay(host, clock)
        await host.archiveEndedRides(after: 0)
        await host.retainArchive(for: retention)
        #expect(try await host.archiveEnded() == 2)
        return (store, host, clock)
    }

    /// The service takes the retention from the config, in days; without it, none.
    @Test func theServiceRetainsTheArchiveForTheConfiguredDays() async throws {
        #expect(await (try ServiceFixture()).host.archiveRetention == nil)
        let fixture = try await ServiceFixture { $0.archiveRetainDays = 2 }
        #expect(await fixture.host.archiveRetention == 2 * 86_400)
    }

    /// A deleted ride is gone from its customer's API and the admin state's pages, but still counted.
    @Test func aDeletedRideLeavesTheAPIButStaysInTheAdminCounts() async throws {
        let fixture = try await ServiceFixture { $0.archiveRetainDays = 1 }
        try await fixture.test { client in
            let ana = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            #expect(ride.status == "rejected")  // no taxi: ended at once
            await fixture.host.archiveEndedRides(after: 60)
            fixture.clock.advance(by: 60)
            #expect(try await fixture.host.archiveEnded() == 1)
            fixture.clock.advance(by: 86_400)
            try await fixture.host.execute(.addDriver(DriverID(99), taxiCode: "TX-99"))  // a command after the ride left memory
            try #require(try await fixture.host.checkpoint() != nil)
            #expect(try await fixture.host.deleteExpiredArchive() == 1)
            let text = try await MetricsTests.scrape(client)
            #expect(MetricsTests.sample(text, "citysim_archive_rides_deleted") == 1, "GET /metrics counts the deletion")
            #expect(MetricsTests.sample(text, "citysim_rides_archived") == 1, "and still counts the ride as archived")
            let token = try await client.login("ana@example.com", "customer-password")  // the first expired
            #expect(try await client.call(.get, "/v1/rides/\(ride.id)", token: token).status == .notFound)
            #expect(try await client.call(.get, "/v1/rides", token: token).decode(RideList.self).rides.isEmpty)
            let state = try await client.call(.get, "/v1/admin/state", token: try await client.admin())
                .decode(AdminStateController.StateBody.self)
            #expect(state.rides.isEmpty && state.counts == ["rejected": 1] && state.total == 1)
        }
    }

    @Test func archiveRetainDaysIsReadStrictlyWithAnEnvironmentOverride() throws {
        let folder = try TemporaryFolder()
        let minimal = ServiceConfigReadingTests.minimal
        #expect(try ServiceConfigReadingTests.load(minimal, in: folder).archiveRetainDays == nil)
        #expect(try ServiceConfigReadingTests.load(minimal + "\narchive_retain_days: 30\n", in: folder).archiveRetainDays == 30)
        let env = try ServiceConfigReadingTests.load(minimal + "\narchive_retain_days: 30\n", in: folder,
                                                     environment: ["CITYSIM_ARCHIVE_RETAIN_DAYS": "7.5"])
        #expect(env.archiveRetainDays == 7.5)
        let zero = try #require(ServiceConfigReadingTests.error(minimal + "\narchive_retain_days: 0\n", in: folder))
        #expect(zero.file == folder.path("service.yaml"))
        #expect(zero.message == "archive_retain_days must be > 0 (leave it out to keep archived rides for ever)")
        let word = try #require(ServiceConfigReadingTests.error(minimal, in: folder,
                                                                environment: ["CITYSIM_ARCHIVE_RETAIN_DAYS": "soon"]))
        #expect(word.message == "archive_retain_days: expected a number (got 'soon')")
        let nested = try #require(ServiceConfigReadingTests.error(minimal + "\narchive: { retain_days: 3 }\n", in: folder))
        #expect(nested.message.hasPrefix("archive: unknown key 'archive' (known: "))
        #expect(nested.message.contains("archive_retain_days"))
        let noCheckpoints = try #require(ServiceConfigReadingTests.error(
            minimal + "\narchive_retain_days: 30\ncheckpoint: { every_commands: 0, every_s: 0 }\n", in: folder))
        #expect(noCheckpoints.message.hasPrefix("archive_retain_days needs checkpoints"))
    }
}

/// The same on PostgreSQL; skipped unless `CITYSIM_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: StoreEngine.postgresURL != nil, StoreEngine.postgresSkipReason))
struct PostgresArchiveRetentionTests {
    @Test func retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts() async throws {
        try await StoreContract.retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(.postgres)
    }
    @Test func archivedRidesPastTheRetentionAreDeletedOnceACheckpointLeftThemOut() async throws {
        try await StoreContract.archivedRidesPastTheRetentionAreDeletedOnceACheckpointLeftThemOut(.postgres)
    }
    @Test func retentionSparesRidesTheNewestCheckpointHolds() async throws {
        try await StoreContract.retentionSparesRidesTheNewestCheckpointHolds(.postgres)
    }
    @Test func upgradingAV4ArchiveBackfillsEachEndAndRetentionGoesByIt() async throws {
        try await StoreContract.upgradingAV4ArchiveBackfillsEachEndAndRetentionGoesByIt(.postgres)
    }
}

/// Rows archived before `ended_at` existed (a `v4` build) get the later of their request and meeting time.
@Suite struct ArchiveEndUpgradeTests {
    @Test func upgradingAV4ArchiveBackfillsEachEndAndRetentionGoesByIt() async throws {
        try await StoreContract.upgradingAV4ArchiveBackfillsEachEndAndRetentionGoesByIt(.sqlite)
    }
}
