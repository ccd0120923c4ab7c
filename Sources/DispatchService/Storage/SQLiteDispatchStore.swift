import Foundation
import GRDB

/// The embedded default `DispatchStore`: one SQLite file in WAL mode through GRDB.
///
/// Tables: `command_log` (append-only: sequence, time, JSON command), `account`,
/// `token` and `reset_token` (SHA-256 hashes only), `outbox`, `archived_ride` (ended rides the
/// host no longer holds).
///
/// ```swift
/// let store = try SQLiteDispatchStore(path: "/var/lib/citysim/service.sqlite")
/// ```
public final class SQLiteDispatchStore: DispatchStore {
    let database: DatabasePool
    /// A second connection that only checkpoints the WAL (see `init`).
    private let checkpointer: DatabaseQueue
    private let checkpoints: Task<Void, Never>

    public var backend: String { "sqlite" }

    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// A second connection checkpoints the WAL every 250 ms (PASSIVE: it never holds the write
    /// lock), so when SQLite's auto-checkpoint runs inside the commit that crosses 1,000 WAL pages
    /// there is little left to copy: that commit used to stall every write queued behind it.
    /// The auto-checkpoint still resets the WAL. Durability is unchanged: each commit syncs the WAL.
    public init(path: String) throws {
        var configuration = Configuration()
        // Wait for another connection's lock (the checkpointer, a store being replaced) instead of failing.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        database = try DatabasePool(path: path, configuration: configuration)
        // DatabasePool turns WAL on and then sets `synchronous = NORMAL` on its writer, after
        // `prepareDatabase`: NORMAL survives a process kill but not a power cut. FULL syncs the WAL
        // at every commit, so an answered command survives both. Set it again on the writer.
        try database.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try Self.migrator.migrate(database)
        let checkpointer = try DatabaseQueue(path: path, configuration: configuration)
        self.checkpointer = checkpointer
        checkpoints = Task.detached(priority: .utility) {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                _ = try? await checkpointer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
            }
        }
    }

    deinit { checkpoints.cancel() }

    /// The writer connection's `PRAGMA synchronous` (2 = FULL: each commit syncs the WAL).
    func writerSynchronousLevel() throws -> Int {
        try database.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE command_log (sequence INTEGER PRIMARY KEY, time REAL NOT NULL, command TEXT NOT NULL);
                CREATE TABLE account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
                    role TEXT NOT NULL, password_hash TEXT NOT NULL, licence TEXT UNIQUE, taxi_code TEXT UNIQUE,
                    disabled INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE token (hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account(id),
                                    expires_at REAL NOT NULL);
                CREATE INDEX token_account ON token(account_id);
                CREATE TABLE reset_token (hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account(id),
                                          expires_at REAL NOT NULL);
                CREATE TABLE outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, recipient TEXT NOT NULL,
                                     subject TEXT NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL);
                """)
        }
        registerArchive(in: &migrator)
        registerCheckpoints(in: &migrator)
        registerArchiveCounts(in: &migrator)
        registerArchiveEnd(in: &migrator)
        registerCheckpointParts(in: &migrator)
        return migrator
    }

    // MARK: - Command log

    public func append(_ commands: [LoggedCommand]) async throws {
        let rows = try commands.map { ($0.sequence, $0.time, try CommandCoding.encode($0.command)) }
        try await database.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO command_log (sequence, time, command) VALUES (?, ?, ?)")
            for (sequence, time, json) in rows {
                try statement.execute(arguments: [sequence, time, json])
            }
        }
    }

    public func commands(after sequence: Int64) async throws -> [LoggedCommand] {
        let rows = try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT sequence, time, command FROM command_log WHERE sequence > ? ORDER BY sequence",
                             arguments: [sequence])
        }
        return try rows.map { row in
            let sequence: Int64 = row["sequence"]
            do {
                return LoggedCommand(sequence: sequence, time: row["time"], command: try CommandCoding.decode(row["command"]))
            } catch {
                throw StoreError.corruptLog(sequence: sequence, reason: "\(error)")
            }
        }
    }

    // MARK: - Accounts

    public func insert(_ account: Account) async throws -> Account {
        var stored = account
        stored.email = account.email.lowercased()
        let row = stored
        let id = try await uniqueWrite { db in
            try db.execute(sql: """
                INSERT INTO account (email, name, role, password_hash, licence, taxi_code, disabled)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [row.email, row.name, row.role.rawValue, row.passwordHash, row.licence,
                                 row.taxiCode, row.disabled])
            return Int(db.lastInsertedRowID)
        }
        stored.id = id
        return stored
    }

    public func account(id: Int) async throws -> Account? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE id = ?", arguments: [id]).map(Self.account(from:))
        }
    }

    public func account(email: String) async throws -> Account? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE email = ?", arguments: [email.lowercased()])
                .map(Self.account(from:))
        }
    }

    public func accounts(role: Role) async throws -> [Account] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account WHERE role = ? ORDER BY id", arguments: [role.rawValue])
                .map(Self.account(from:))
        }
    }

    public func update(_ account: Account) async throws {
        let changed = try await uniqueWrite { db in
            try db.execute(sql: """
                UPDATE account SET email = ?, name = ?, role = ?, password_hash = ?, licence = ?, taxi_code = ?,
                disabled = ? WHERE id = ?
                """, arguments: [account.email.lowercased(), account.name, account.role.rawValue, account.passwordHash,
                                 account.licence, account.taxiCode, account.disabled, account.id])
            return db.changesCount
        }
        if changed == 0 { throw StoreError.unknownAccount(account.id) }
    }

    public func deleteAccount(id: Int) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id]) }
    }

    private static func account(from row: Row) -> Account {
        Account(id: row["id"], email: row["email"], name: row["name"], role: Role(rawValue: row["role"]) ?? .customer,
                passwordHash: row["password_hash"], licence: row["licence"], taxiCode: row["taxi_code"],
                disabled: row["disabled"])
    }

    /// Runs a write, turning a UNIQUE violation into `StoreError.duplicate` naming the column.
    private func uniqueWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.write(body)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            let message = error.message ?? ""
            let column = message.contains("licence") ? "licence" : message.contains("taxi_code") ? "taxi code" : "email"
            throw StoreError.duplicate(column)
        }
    }

    // MARK: - Tokens, resets, outbox

    public func insertToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO token (hash, account_id, expires_at) VALUES (?, ?, ?)",
                           arguments: [hash, accountID, expiresAt])
        }
    }

    public func token(hash: String) async throws -> (accountID: Int, expiresAt: Double)? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT account_id, expires_at FROM token WHERE hash = ?", arguments: [hash])
                .map { (accountID: $0["account_id"], expiresAt: $0["expires_at"]) }
        }
    }

    public func deleteToken(hash: String) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM token WHERE hash = ?", arguments: [hash]) }
    }

    public func deleteTokens(accountID: Int) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM token WHERE account_id = ?", arguments: [accountID])
        }
    }

    public func deleteTokens(accountID: Int, except kept: String) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM token WHERE account_id = ? AND hash <> ?", arguments: [accountID, kept])
        }
    }

    public func insertResetToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO reset_token (hash, account_id, expires_at) VALUES (?, ?, ?)",
                           arguments: [hash, accountID, expiresAt])
        }
    }

    public func consumeResetToken(hash: String, now: Double) async throws -> Int? {
        try await database.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT account_id, expires_at FROM reset_token WHERE hash = ?",
                                             arguments: [hash]) else { return nil }
            try db.execute(sql: "DELETE FROM reset_token WHERE hash = ?", arguments: [hash])
            let expiry: Double = row["expires_at"]
            return expiry > now ? row["account_id"] as Int : nil
        }
    }

    public func enqueue(_ message: OutboxMessage) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO outbox (recipient, subject, body, created_at) VALUES (?, ?, ?, ?)",
                           arguments: [message.recipient, message.subject, message.body, message.createdAt])
        }
    }

    public func outbox() async throws -> [OutboxMessage] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT recipient, subject, body, created_at FROM outbox ORDER BY id").map {
                OutboxMessage(recipient: $0["recipient"], subject: $0["subject"], body: $0["body"], createdAt: $0["created_at"])
            }
        }
    }
}
