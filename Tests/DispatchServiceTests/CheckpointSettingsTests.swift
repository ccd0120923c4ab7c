import DispatchCore
import GRDB
import Foundation
import Testing
@testable import DispatchService

/// The `checkpoint:` config block, its environment overrides and its gauges.
@Suite struct CheckpointSettingsTests {
    @Test func checkpointKeysAreReadStrictlyWithEnvironmentOverrides() throws {
        let folder = try TemporaryFolder()
        let minimal = ServiceConfigReadingTests.minimal
        let none = try ServiceConfigReadingTests.load(minimal, in: folder)
        #expect(none.checkpoint == nil)
        #expect(CheckpointSettings().policy == CheckpointPolicy(commands: 100_000, seconds: 300))
        let set = try ServiceConfigReadingTests.load(minimal + "\ncheckpoint: { every_commands: 5000, every_s: 0 }\n", in: folder)
        #expect(set.checkpoint == CheckpointSettings(everyCommands: 5000, everyS: 0))
        #expect(set.checkpoint?.policy == CheckpointPolicy(commands: 5000, seconds: nil))
        let env = try ServiceConfigReadingTests.load(minimal, in: folder, environment: [
            "CITYSIM_CHECKPOINT_EVERY_COMMANDS": "0", "CITYSIM_CHECKPOINT_EVERY_S": "60"])
        #expect(env.checkpoint?.policy == CheckpointPolicy(commands: nil, seconds: 60))
        let typo = try #require(ServiceConfigReadingTests.error(minimal + "\ncheckpoint: { every_command: 5 }\n", in: folder))
        #expect(typo.message.hasPrefix("checkpoint.every_command: unknown key"))
        let negative = try #require(ServiceConfigReadingTests.error(minimal + "\ncheckpoint: { every_s: -1 }\n", in: folder))
        #expect(negative.message == "checkpoint.every_s must be >= 0 (0: never)")
        let word = try #require(ServiceConfigReadingTests.error(minimal, in: folder,
                                                                environment: ["CITYSIM_CHECKPOINT_EVERY_COMMANDS": "often"]))
        #expect(word.message == "checkpoint.every_commands: expected an integer (got 'often')")
    }

    /// The command trigger: due once N commands were logged since the last checkpoint, not before.
    @Test func aCheckpointIsDueAfterEveryNCommands() async throws {
        let host = try await DispatchHost(store: InMemoryDispatchStore(), clock: ManualClock(), makeCore: RestartTests.makeCore)
        await host.checkpoint(under: CheckpointPolicy(commands: 3, seconds: nil))
        for d in 1...2 { try await host.execute(.addDriver(DriverID(d), taxiCode: "TX-\(d)")) }
        #expect(await host.checkpointDue == false)
        try await host.execute(.addDriver(DriverID(3), taxiCode: "TX-3"))
        #expect(await host.checkpointDue)
        #expect(try await host.checkpoint() == 3)
        #expect(await host.checkpointDue == false)
        await host.checkpoint(under: .never)
        for d in 4...9 { try await host.execute(.addDriver(DriverID(d), taxiCode: "TX-\(d)")) }
        #expect(await host.checkpointDue == false)
    }

    /// A city set by `setCity` is in the checkpoint, so a restart after the log is cut keeps it.
    @Test func aCheckpointKeepsACitySetAtRunTime() async throws {
        let store = InMemoryDispatchStore()
        let host = try await DispatchHost(store: store, clock: ManualClock(), makeCore: RestartTests.makeCore)
        let city = try CityGeometry(width: 4_000, height: 4_000, zoneSide: 2_000)
        try await host.execute(.setCity(city))
        try await host.checkpoint()
        let restarted = try await DispatchHost(store: store, clock: ManualClock(), makeCore: RestartTests.makeCore)
        #expect(await restarted.coreState() == host.coreState())
        #expect(await restarted.state().queues.count == 4)
    }

    /// `GET /metrics` shows the commands since the checkpoint and the checkpoint's sequence, size and duration.
    @Test func checkpointGaugesFollowTheLog() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", adminToken: admin)
            var text = try await MetricsTests.scrape(client)
            let logged = try #require(MetricsTests.sample(text, "citysim_command_log_rows_since_checkpoint"))
            #expect(logged >= 3 && MetricsTests.sample(text, "citysim_checkpoint_sequence") == 0)
            let cut = try #require(try await fixture.host.checkpoint())
            text = try await MetricsTests.scrape(client)
            #expect(MetricsTests.sample(text, "citysim_command_log_rows_since_checkpoint") == 0)
            #expect(MetricsTests.sample(text, "citysim_checkpoint_sequence") == Double(cut))
            #expect(try #require(MetricsTests.sample(text, "citysim_checkpoint_bytes")) > 100)
            #expect(try #require(MetricsTests.sample(text, "citysim_checkpoint_duration_seconds")) > 0)
            #expect(MetricsTests.sample(text, "citysim_checkpoints_total") == 1)
        }
    }
}

/// The archive's counts by state live in `archived_count`, so a restart does not scan the archive.
@Suite struct ArchivedCountTests {
    /// A file archived by a build before `archived_count` gets its counts from the rows already stored.
    @Test func upgradingAFileCountsTheRidesAlreadyArchived() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("service.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try SQLiteDispatchStore.migrator.migrate(queue, upTo: "v3")
            try await queue.write { db in
                for (id, status) in [(1, "completed"), (2, "rejected"), (3, "completed")] {
                    try db.execute(sql: "INSERT INTO archived_ride (id, customer, status, ride) VALUES (?, 7, ?, '{}')",
                                   arguments: [id, status])
                }
            }
        }
        let store = try SQLiteDispatchStore(path: path)
        #expect(try await store.archivedCounts() == [.completed: 2, .rejected: 1])
    }
}
