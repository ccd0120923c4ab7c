import DispatchCore
import Synchronization

/// A `DispatchStore` in memory, for tests: same contract, nothing survives the process.
/// Sharing one instance between two hosts simulates a restart.
public final class InMemoryDispatchStore: DispatchStore {
    private struct State {
        var log: [LoggedCommand] = []
        var accounts: [Account] = []
        var tokens: [String: (Int, Double)] = [:]
        var resetTokens: [String: (Int, Double)] = [:]
        var outbox: [OutboxMessage] = []
    }

    private let state = Mutex(State())
    /// Archived rides and their counts (`RideArchive`).
    let archived = Mutex(InMemoryArchive())
    /// Checkpoints by sequence (`CheckpointStore`).
    let checkpoints = Mutex<[Int64: StoredCheckpoint]>([:])

    public init() {}

    public var backend: String { "memory" }

    public func append(_ commands: [LoggedCommand]) async throws { state.withLock { $0.log += commands } }

    public func commands(after sequence: Int64) async throws -> [LoggedCommand] {
        state.withLock { s in s.log.filter { $0.sequence > sequence } }
    }

    /// Drops the log rows ≤ `sequence` (`CheckpointStore.truncateLog`).
    func dropLog(through sequence: Int64) { state.withLock { s in s.log.removeAll { $0.sequence <= sequence } } }

    public func insert(_ account: Account) async throws -> Account {
        try state.withLock { s throws(StoreError) in
            try Self.checkUnique(account, among: s.accounts)
            var stored = account
            stored.email = account.email.lowercased()
            stored.id = (s.accounts.map(\.id).max() ?? 0) + 1
            s.accounts.append(stored)
            return stored
        }
    }

    public func account(id: Int) async throws -> Account? { state.withLock { s in s.accounts.first { $0.id == id } } }

    public func account(email: String) async throws -> Account? {
        let key = email.lowercased()
        return state.withLock { s in s.accounts.first { $0.email == key } }
    }

    public func accounts(role: Role) async throws -> [Account] { state.withLock { s in s.accounts.filter { $0.role == role } } }

    public func update(_ account: Account) async throws {
        try state.withLock { s throws(StoreError) in
            guard let index = s.accounts.firstIndex(where: { $0.id == account.id }) else { throw .unknownAccount(account.id) }
            try Self.checkUnique(account, among: s.accounts.filter { $0.id != account.id })
            s.accounts[index] = account
        }
    }

    public func deleteAccount(id: Int) async throws {
        state.withLock { s in s.accounts.removeAll { $0.id == id } }
    }

    public func insertToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        state.withLock { $0.tokens[hash] = (accountID, expiresAt) }
    }

    public func token(hash: String) async throws -> (accountID: Int, expiresAt: Double)? {
        state.withLock { s in s.tokens[hash].map { (accountID: $0.0, expiresAt: $0.1) } }
    }

    public func deleteToken(hash: String) async throws { _ = state.withLock { $0.tokens.removeValue(forKey: hash) } }

    public func deleteTokens(accountID: Int) async throws {
        state.withLock { s in s.tokens = s.tokens.filter { $0.value.0 != accountID } }
    }

    public func deleteTokens(accountID: Int, except kept: String) async throws {
        state.withLock { s in s.tokens = s.tokens.filter { $0.value.0 != accountID || $0.key == kept } }
    }

    public func insertResetToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        state.withLock { $0.resetTokens[hash] = (accountID, expiresAt) }
    }

    public func consumeResetToken(hash: String, now: Double) async throws -> Int? {
        state.withLock { s in
            guard let (account, expiry) = s.resetTokens.removeValue(forKey: hash), expiry > now else { return nil }
            return account
        }
    }

    public func enqueue(_ message: OutboxMessage) async throws { state.withLock { $0.outbox.append(message) } }

    public func outbox() async throws -> [OutboxMessage] { state.withLock { $0.outbox } }

    private static func checkUnique(_ account: Account, among others: [Account]) throws(StoreError) {
        if others.contains(where: { $0.email == account.email.lowercased() }) { throw .duplicate("email") }
        if let licence = account.licence, others.contains(where: { $0.licence == licence }) { throw .duplicate("licence") }
        if let code = account.taxiCode, others.contains(where: { $0.taxiCode == code }) { throw .duplicate("taxi code") }
    }
}
