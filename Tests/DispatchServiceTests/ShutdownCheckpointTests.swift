import DispatchCore
import Testing
@testable import DispatchService

/// A graceful shutdown ends with a checkpoint at the last committed command, so the next start
/// replays no tail (`TimerService`, `DispatchHost.checkpointAtShutdown`).
@Suite struct ShutdownCheckpointTests {
    @Test(arguments: StoreEngine.embedded) func aGracefulShutdownLeavesNoTailToReplay(_ engine: StoreEngine) async throws {
        try await Self.aGracefulShutdownLeavesNoTailToReplay(engine)
    }

    /// With checkpoints turned off, shutting down takes none either (the log stays whole, as configured).
    @Test func noCheckpointAtShutdownWhenCheckpointsAreOff() async throws {
        let store = InMemoryDispatchStore()
        let fixture = try await ServiceFixture(store: store)
        await fixture.host.checkpoint(under: .never)
        try await RestartTests.busyDay(fixture.host, fixture.clock)
        try await Self.runAndShutDown(fixture)
        #expect(try await store.latestCheckpoint() == nil)
        #expect(try await store.commands().count == Int(await fixture.host.sequence))
    }

    /// Starts the service group on a free port and shuts it down gracefully once it listens.
    static func runAndShutDown(_ fixture: ServiceFixture, while body: () async throws -> Void = {}) async throws {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let group = fixture.service.serviceGroup(signals: [], port: 0) { listening.yield($0) }
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        _ = try #require(await iterator.next())
        try await body()
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Commands issued while the service runs, a graceful shutdown, a restart on the same store: the
    /// newest checkpoint is at the last logged command, the log after it is empty, and the restarted
    /// service holds the state the stopped one held.
    static func aGracefulShutdownLeavesNoTailToReplay(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let planner = try await site.planner(beside: store)
            let fixture = try await ServiceFixture(store: store, plannerStore: planner)
            try await runAndShutDown(fixture) {
                try await RestartTests.busyDay(fixture.host, fixture.clock)
            }
            let logged = await fixture.host.sequence
            #expect(logged > 0)

            let reopened = try await site.open()
            let restarted = try await ServiceFixture(store: reopened, clock: fixture.clock, plannerStore: planner)
            #expect(try await reopened.latestCheckpoint()?.sequence == logged)
            #expect(try await reopened.commands().isEmpty)
            #expect(await restarted.host.commandsSinceCheckpoint == 0)
            #expect(await restarted.host.checkpointStatus.sequence == logged)
            await StoreContract.expectSameState(restarted.host, as: fixture.host)
        }
    }
}

/// The same on PostgreSQL; skipped unless `CITYSIM_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: StoreEngine.postgresURL != nil, StoreEngine.postgresSkipReason))
struct PostgresShutdownCheckpointTests {
    @Test func aGracefulShutdownLeavesNoTailToReplay() async throws {
        try await ShutdownCheckpointTests.aGracefulShutdownLeavesNoTailToReplay(.postgres)
    }
}
