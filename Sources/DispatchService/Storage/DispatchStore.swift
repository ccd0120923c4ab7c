/// Durable storage of the service: the append-only command log the dispatch
/// core is rebuilt from, and the accounts, tokens and outbox.
///
/// Implementations: `SQLiteDispatchStore` (GRDB, one file in WAL mode, the
/// embedded default) and `InMemoryDispatchStore` (tests). A PostgreSQL store
/// implements the same protocol.
///
/// Contract: `append` returns only when the commands are durable; a failed
/// append stores none of them; `commands(after:)` returns them in sequence order.
/// It is also the `RideArchive` of ended rides the host no longer holds, and keeps the
/// checkpoints the log is cut at (`CheckpointStore`).
public protocol DispatchStore: RideArchive, CheckpointStore {
    /// The storage engine's name in traces (`store.backend`): `sqlite`, `postgresql`, `memory`;
    /// by default the type's name.
    var backend: String { get }

    // MARK: Command log

    /// Stores accepted commands, in one transaction.
    func append(_ commands: [LoggedCommand]) async throws

    // MARK: Accounts

    /// Inserts the account and returns it with its new id.
    /// - Throws: `StoreError.duplicate` for a taken email, licence or taxi code.
    func insert(_ account: Account) async throws -> Account
    func account(id: Int) async throws -> Account?
    /// - Parameter email: compared lower-cased.
    func account(email: String) async throws -> Account?
    func accounts(role: Role) async throws -> [Account]
    /// Replaces the stored account with the same id.
    func update(_ account: Account) async throws
    /// Deletes an account that has no tokens yet (undoing a creation that could not be completed).
    func deleteAccount(id: Int) async throws

    // MARK: Tokens

    /// Stores a bearer token by its hash.
    func insertToken(hash: String, accountID: Int, expiresAt: Double) async throws
    /// The account id and expiry of a token hash.
    func token(hash: String) async throws -> (accountID: Int, expiresAt: Double)?
    func deleteToken(hash: String) async throws
    func deleteTokens(accountID: Int) async throws
    /// Deletes every token of the account but the one with hash `kept` (the caller's own session).
    func deleteTokens(accountID: Int, except kept: String) async throws

    // MARK: Password reset

    func insertResetToken(hash: String, accountID: Int, expiresAt: Double) async throws
    /// Deletes the reset token and returns its account if it had not expired at `now`.
    func consumeResetToken(hash: String, now: Double) async throws -> Int?
    func enqueue(_ message: OutboxMessage) async throws
    func outbox() async throws -> [OutboxMessage]
}

extension DispatchStore {
    public var backend: String { "\(Self.self)" }

    /// One round trip to the storage (a read of no account), for readiness checks.
    public func ping() async throws { _ = try await account(id: -1) }
}
