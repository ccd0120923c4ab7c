import Testing

/// The store contract (`StoreContract`) on the embedded engines: in memory and SQLite.
@Suite struct StoreContractTests {
    @Test(arguments: StoreEngine.embedded) func appendedBatchesComeBackInOrder(_ engine: StoreEngine) async throws {
        try await StoreContract.appendedBatchesComeBackInOrder(engine)
    }

    /// The in-memory store does not check sequences, so only SQLite can fail part-way.
    @Test(arguments: [StoreEngine.sqlite]) func aFailedAppendStoresNone(_ engine: StoreEngine) async throws {
        try await StoreContract.aFailedAppendStoresNone(engine)
    }

    @Test(arguments: StoreEngine.embedded) func duplicatesAreRefusedByColumn(_ engine: StoreEngine) async throws {
        try await StoreContract.duplicatesAreRefusedByColumn(engine)
    }

    @Test(arguments: StoreEngine.embedded) func accountsRoundTrip(_ engine: StoreEngine) async throws {
        try await StoreContract.accountsRoundTrip(engine)
    }

    @Test(arguments: StoreEngine.embedded) func tokensAreStoredAndDeleted(_ engine: StoreEngine) async throws {
        try await StoreContract.tokensAreStoredAndDeleted(engine)
    }

    @Test(arguments: StoreEngine.embedded) func resetTokensAreConsumedOnce(_ engine: StoreEngine) async throws {
        try await StoreContract.resetTokensAreConsumedOnce(engine)
    }

    @Test(arguments: StoreEngine.embedded) func outboxKeepsOrder(_ engine: StoreEngine) async throws {
        try await StoreContract.outboxKeepsOrder(engine)
    }

    @Test(arguments: StoreEngine.embedded) func archivedRidesRoundTrip(_ engine: StoreEngine) async throws {
        try await StoreContract.archivedRidesRoundTrip(engine)
    }

    @Test(arguments: StoreEngine.embedded) func plannerRowsRoundTrip(_ engine: StoreEngine) async throws {
        try await StoreContract.plannerRowsRoundTrip(engine)
    }

    @Test(arguments: StoreEngine.embedded) func restartRebuildsDriversQueuesRidesAndTimers(_ engine: StoreEngine) async throws {
        try await StoreContract.restartRebuildsDriversQueuesRidesAndTimers(engine)
    }

    @Test(arguments: StoreEngine.embedded) func restartKeepsAccountsTokensAndRidesThroughTheAPI(_ engine: StoreEngine) async throws {
        try await StoreContract.restartKeepsAccountsTokensAndRidesThroughTheAPI(engine)
    }
}

/// The same store contract on PostgreSQL, each test in a schema of its own; skipped unless
/// `CITYSIM_TEST_POSTGRES_URL` is set.
@Suite(.enabled(if: StoreEngine.postgresURL != nil, StoreEngine.postgresSkipReason))
struct PostgresStoreContractTests {
    @Test func appendedBatchesComeBackInOrder() async throws { try await StoreContract.appendedBatchesComeBackInOrder(.postgres) }
    @Test func aFailedAppendStoresNone() async throws { try await StoreContract.aFailedAppendStoresNone(.postgres) }
    @Test func duplicatesAreRefusedByColumn() async throws { try await StoreContract.duplicatesAreRefusedByColumn(.postgres) }
    @Test func accountsRoundTrip() async throws { try await StoreContract.accountsRoundTrip(.postgres) }
    @Test func tokensAreStoredAndDeleted() async throws { try await StoreContract.tokensAreStoredAndDeleted(.postgres) }
    @Test func resetTokensAreConsumedOnce() async throws { try await StoreContract.resetTokensAreConsumedOnce(.postgres) }
    @Test func outboxKeepsOrder() async throws { try await StoreContract.outboxKeepsOrder(.postgres) }
    @Test func archivedRidesRoundTrip() async throws { try await StoreContract.archivedRidesRoundTrip(.postgres) }
    @Test func plannerRowsRoundTrip() async throws { try await StoreContract.plannerRowsRoundTrip(.postgres) }
    @Test func restartRebuildsDriversQueuesRidesAndTimers() async throws {
        try await StoreContract.restartRebuildsDriversQueuesRidesAndTimers(.postgres)
    }
    @Test func restartKeepsAccountsTokensAndRidesThroughTheAPI() async throws {
        try await StoreContract.restartKeepsAccountsTokensAndRidesThroughTheAPI(.postgres)
    }
}
