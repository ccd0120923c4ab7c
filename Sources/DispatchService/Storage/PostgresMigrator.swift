import Logging
import PostgresNIO

/// Named, ordered schema migrations for PostgreSQL, recorded in `schema_version`.
///
/// Each migration runs once, in its own transaction, together with the row that records it; an
/// advisory lock makes two services starting at once on one database take turns. Running the
/// migrator again is a no-op.
///
/// ```swift
/// try await PostgresMigrator(client: client).migrate([("v1", ["CREATE TABLE …", "CREATE INDEX …"])])
/// ```
struct PostgresMigrator {
    /// A migration: its name and its statements (one per string; the extended protocol runs one at a time).
    typealias Migration = (name: String, statements: [String])

    let client: PostgresClient
    let logger: Logger

    /// Key of the advisory lock held while migrating (any constant shared by every citysim service).
    static let lockKey: Int64 = 0x63_69_74_79_73_69_6d  // "citysim"

    func migrate(_ migrations: [Migration]) async throws {
        try await client.query(
            "CREATE TABLE IF NOT EXISTS schema_version (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
            logger: logger)
        for migration in migrations {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.lockKey))", logger: logger)
                let done = try await connection.query("SELECT 1 FROM schema_version WHERE name = \(migration.name)", logger: logger)
                var applied = false
                for try await _ in done { applied = true }
                guard !applied else { return }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_version (name) VALUES (\(migration.name))", logger: logger)
            }
        }
    }
}
