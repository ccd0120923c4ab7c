import Testing

/// Checkpoints (`CheckpointStore`, `DispatchHost.checkpoint()`) on the embedded engines.
@Suite struct CheckpointTests {
    @Test(arguments: StoreEngine.embedded) func restartFromCheckpointMatchesTheUninterruptedHost(_ engine: StoreEngine) async throws {
        try await StoreContract.restartFromCheckpointMatchesTheUninterruptedHost(engine)
    }

    @Test(arguments: StoreEngine.embedded) func aCheckpointDeletesTheLogUpToIt(_ engine: StoreEngine) async throws {
        try await StoreContract.aCheckpointDeletesTheLogUpToIt(engine)
    }

    @Test(arguments: StoreEngine.embedded) func aCrashBetweenCheckpointAndCutRecovers(_ engine: StoreEngine) async throws {
        try await StoreContract.aCrashBetweenCheckpointAndCutRecovers(engine)
    }

    @Test(arguments: StoreEngine.embedded) func anUnusableCheckpointIsAClearError(_ engine: StoreEngine) async throws {
        try await StoreContract.anUnusableCheckpointIsAClearError(engine)
    }
}

/// The same on PostgreSQL; skipped unless `CITYSIM_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: StoreEngine.postgresURL != nil, StoreEngine.postgresSkipReason))
struct PostgresCheckpointTests {
    @Test func restartFromCheckpointMatchesTheUninterruptedHost() async throws {
        try await StoreContract.restartFromCheckpointMatchesTheUninterruptedHost(.postgres)
    }
    @Test func aCheckpointDeletesTheLogUpToIt() async throws { try await StoreContract.aCheckpointDeletesTheLogUpToIt(.postgres) }
    @Test func aCrashBetweenCheckpointAndCutRecovers() async throws {
        try await StoreContract.aCrashBetweenCheckpointAndCutRecovers(.postgres)
    }
    @Test func anUnusableCheckpointIsAClearError() async throws { try await StoreContract.anUnusableCheckpointIsAClearError(.postgres) }
}
