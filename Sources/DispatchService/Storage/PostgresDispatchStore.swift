import Foundation
import Logging
import PostgresNIO

/// A `DispatchStore` on a PostgreSQL server through postgres-nio's `PostgresClient` (a connection pool).
///
/// Same tables and contract as `SQLiteDispatchStore`: `command_log` (append-only), `account`,
/// `token` and `reset_token` (SHA-256 hashes only), `outbox`, `archived_ride`; the schema is brought up to date at
/// open and recorded in `schema_version`. Every value is a bound parameter. The store runs its
/// client's pool in a task of its own, ended by `close()` (or when the store is released).
///
/// ```swift
/// let store = try await PostgresDispatchStore(url: try PostgresURL("postgres://citysim@127.0.0.1/citysim"))
/// defer { Task { await store.close() } }
/// ```
public final class PostgresDispatchStore: DispatchStore {
    let client: PostgresClient
    let logger: Logger
    private let running: Task<Void, Never>

    public var backend: String { "postgresql" }

    /// Connects, creates the URL's schema when it names one, and migrates the tables.
    /// - Throws: `PostgresUnavailable` when the server cannot be reached or refuses the login or the
    ///   database (the pool alone would retry for ever); the server's error when it refuses the schema.
    public convenience init(url: PostgresURL) async throws {
        try await self.init(url: url, migrations: Self.migrations)
    }

    /// The same, running only `migrations` (a prefix of `migrations`: tests build an older schema with it).
    init(url: PostgresURL, migrations: [PostgresMigrator.Migration]) async throws {
        var logger = Logger(label: "citysim.postgres")
        logger.logLevel = .warning
        self.logger = logger
        try await Self.check(url, logger: logger)
        let client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
        self.client = client
        // Immediate: `run()` marks the client running before its first suspension, so the first query finds it running.
        running = Task.immediate { await client.run() }
        do {
            if let schema = url.schema {
                // An identifier cannot be a bound parameter; `PostgresURL` admits only [a-z_][a-z0-9_]*.
                try await client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
            }
            try await PostgresMigrator(client: client, logger: logger).migrate(migrations)
        } catch {
            running.cancel()
            throw error
        }
    }

    deinit { running.cancel() }

    /// Opens and closes one connection, so that a wrong address, login or database fails the open.
    private static func check(_ url: PostgresURL, logger: Logger) async throws {
        do {
            let connection = try await PostgresConnection.connect(configuration: try url.connectionConfiguration, id: 0, logger: logger)
            try await connection.close()
        } catch let error as PSQLError {
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
            throw PostgresUnavailable(url: url.redacted, reason: reason)
        }
    }

    /// Stops the pool: closes its connections and waits until they are closed.
    public func close() async {
        running.cancel()
        await running.value
    }

    static let migrations: [PostgresMigrator.Migration] = [
        ("v1", [
            "CREATE TABLE command_log (sequence BIGINT PRIMARY KEY, time DOUBLE PRECISION NOT NULL, command TEXT NOT NULL)",
            """
            CREATE TABLE account (id BIGSERIAL PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
                role TEXT NOT NULL, password_hash TEXT NOT NULL, licence TEXT UNIQUE, taxi_code TEXT UNIQUE,
                disabled BOOLEAN NOT NULL DEFAULT FALSE)
            """,
            """
            CREATE TABLE token (hash TEXT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES account(id),
                expires_at DOUBLE PRECISION NOT NULL)
            """,
            "CREATE INDEX token_account ON token(account_id)",
            """
            CREATE TABLE reset_token (hash TEXT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES account(id),
                expires_at DOUBLE PRECISION NOT NULL)
            """,
            """
            CREATE TABLE outbox (id BIGSERIAL PRIMARY KEY, recipient TEXT NOT NULL, subject TEXT NOT NULL,
                body TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL)
            """,
        ]),
        archiveMigration,
        checkpointMigration,
        archiveCountMigration,
        archiveEndMigration,
    ]

    // MARK: - Command log

    /// One INSERT of the whole batch (arrays unnested server-side): one round trip, one transaction,
    /// committed (and, with the server's default `synchronous_commit`, flushed) before it returns.
    public func append(_ commands: [LoggedCommand]) async throws {
        guard !commands.isEmpty else { return }
        let sequences = commands.map(\.sequence)
        let times = commands.map(\.time)
        let texts = try commands.map { try CommandCoding.encode($0.command) }
        try await client.query("""
            INSERT INTO command_log (sequence, time, command)
            SELECT * FROM unnest(\(sequences)::BIGINT[], \(times)::DOUBLE PRECISION[], \(texts)::TEXT[])
            """, logger: logger)
    }

    public func commands(after sequence: Int64) async throws -> [LoggedCommand] {
        let rows = try await client.query(
            "SELECT sequence, time, command FROM command_log WHERE sequence > \(sequence) ORDER BY sequence", logger: logger)
        var log: [LoggedCommand] = []
        for try await (sequence, time, text) in rows.decode((Int64, Double, String).self) {
            do {
                log.append(LoggedCommand(sequence: sequence, time: time, command: try CommandCoding.decode(text)))
            } catch {
                throw StoreError.corruptLog(sequence: sequence, reason: "\(error)")
            }
        }
        return log
    }

    // MARK: - Accounts

    private static let accountColumns = "id, email, name, role, password_hash, licence, taxi_code, disabled"
    private typealias AccountRow = (Int, String, String, String, String, String?, String?, Bool)

    public func insert(_ account: Account) async throws -> Account {
        var stored = account
        stored.email = account.email.lowercased()
        let row = stored
        // The error of a RETURNING statement arrives with its rows, so they are read inside `unique`.
        let ids = try await unique {
            try await client.query("""
                INSERT INTO account (email, name, role, password_hash, licence, taxi_code, disabled)
                VALUES (\(row.email), \(row.name), \(row.role.rawValue), \(row.passwordHash), \(row.licence),
                        \(row.taxiCode), \(row.disabled)) RETURNING id
                """, logger: logger).collect(Int.self)
        }
        stored.id = ids[0]
        return stored
    }

    public func account(id: Int) async throws -> Account? {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)").first
    }

    public func account(email: String) async throws -> Account? {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE email = \(email.lowercased())").first
    }

    public func accounts(role: Role) async throws -> [Account] {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE role = \(role.rawValue) ORDER BY id")
    }

    public func update(_ account: Account) async throws {
        let rows = try await unique {
            try await client.query("""
                UPDATE account SET email = \(account.email.lowercased()), name = \(account.name),
                    role = \(account.role.rawValue), password_hash = \(account.passwordHash), licence = \(account.licence),
                    taxi_code = \(account.taxiCode), disabled = \(account.disabled)
                WHERE id = \(account.id) RETURNING id
                """, logger: logger).collect(Int.self)
        }
        if rows.isEmpty { throw StoreError.unknownAccount(account.id) }
    }

    public func deleteAccount(id: Int) async throws {
        try await client.query("DELETE FROM account WHERE id = \(id)", logger: logger)
    }

    /// Runs the query (a constant column list, values bound) and reads accounts.
    private func accounts(_ query: PostgresQuery) async throws -> [Account] {
        var found: [Account] = []
        for try await row in try await client.query(query, logger: logger).decode(AccountRow.self) {
            found.append(Account(id: row.0, email: row.1, name: row.2, role: Role(rawValue: row.3) ?? .customer,
                                 passwordHash: row.4, licence: row.5, taxiCode: row.6, disabled: row.7))
        }
        return found
    }

    /// Runs a write, turning a unique violation (SQLSTATE 23505) into `StoreError.duplicate` naming the column.
    private func unique<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            let constraint = error.serverInfo?[.constraintName] ?? ""
            throw StoreError.duplicate(constraint.contains("licence") ? "licence"
                                       : constraint.contains("taxi_code") ? "taxi code" : "email")
        }
    }

    // MARK: - Tokens, resets, outbox

    public func insertToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await client.query("INSERT INTO token (hash, account_id, expires_at) VALUES (\(hash), \(accountID), \(expiresAt))",
                               logger: logger)
    }

    public func token(hash: String) async throws -> (accountID: Int, expiresAt: Double)? {
        let rows = try await client.query("SELECT account_id, expires_at FROM token WHERE hash = \(hash)", logger: logger)
        for try await (account, expiry) in rows.decode((Int, Double).self) { return (accountID: account, expiresAt: expiry) }
        return nil
    }

    public func deleteToken(hash: String) async throws {
        try await client.query("DELETE FROM token WHERE hash = \(hash)", logger: logger)
    }

    public func deleteTokens(accountID: Int) async throws {
        try await client.query("DELETE FROM token WHERE account_id = \(accountID)", logger: logger)
    }

    public func deleteTokens(accountID: Int, except kept: String) async throws {
        try await client.query("DELETE FROM token WHERE account_id = \(accountID) AND hash <> \(kept)", logger: logger)
    }

    public func insertResetToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await client.query(
            "INSERT INTO reset_token (hash, account_id, expires_at) VALUES (\(hash), \(accountID), \(expiresAt))",
            logger: logger)
    }

    /// One statement deletes and returns the row, so two concurrent consumers cannot both get it.
    public func consumeResetToken(hash: String, now: Double) async throws -> Int? {
        let rows = try await client.query("DELETE FROM reset_token WHERE hash = \(hash) RETURNING account_id, expires_at",
                                          logger: logger)
        for try await (account, expiry) in rows.decode((Int, Double).self) { return expiry > now ? account : nil }
        return nil
    }

    public func enqueue(_ message: OutboxMessage) async throws {
        try await client.query("""
            INSERT INTO outbox (recipient, subject, body, created_at)
            VALUES (\(message.recipient), \(message.subject), \(message.body), \(message.createdAt))
            """, logger: logger)
    }

    public func outbox() async throws -> [OutboxMessage] {
        let rows = try await client.query("SELECT recipient, subject, body, created_at FROM outbox ORDER BY id", logger: logger)
        var messages: [OutboxMessage] = []
        for try await (recipient, subject, body, created) in rows.decode((String, String, String, Double).self) {
            messages.append(OutboxMessage(recipient: recipient, subject: subject, body: body, createdAt: created))
        }
        return messages
    }
}

extension PostgresRowSequence {
    /// Every row's single column, read to the end (so a server error in the rows is thrown here).
    func collect<T: PostgresDecodable & Sendable>(_ type: T.Type) async throws -> [T] {
        var values: [T] = []
        for try await value in decode(T.self) { values.append(value) }
        return values
    }
}

/// The PostgreSQL server of a store could not be used: unreachable, or it refused the login or database.
public struct PostgresUnavailable: Error, CustomStringConvertible {
    /// The URL, password hidden.
    public var url: String
    public var reason: String
    public var description: String { "PostgreSQL at \(url): \(reason)" }
}
