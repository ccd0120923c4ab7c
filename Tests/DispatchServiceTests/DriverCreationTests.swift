import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
@testable import DispatchService

/// An in-memory store whose command log can be made to fail, as a full disk or a lost database would,
/// or slow (`appendDelay`), and whose account reads can be made to fail (`unreachable`, a lost database).
final class FailingLogStore: DispatchStore {
    let base = InMemoryDispatchStore()
    let failing = Mutex(false)
    let appendDelay = Mutex(Duration.zero)
    let unreachable = Mutex(false)
    /// While set, account reads wait, deaf to cancellation (a database that stopped answering).
    let hanging = Mutex(false)
    /// Appends started and not yet finished.
    let appending = Mutex(0)
    /// While set, appends wait (after counting themselves in `appending`), unless their task is cancelled.
    let appendsHeld = Mutex(false)
    /// The commands of each append that succeeded, in order.
    let batches = Mutex<[Int]>([])

    struct Failure: Error {}

    func append(_ commands: [LoggedCommand]) async throws {
        if failing.withLock({ $0 }) { throw Failure() }
        appending.withLock { $0 += 1 }
        defer { appending.withLock { $0 -= 1 } }
        // Not past a cancellation: the sleep would throw at once and the loop spin.
        while appendsHeld.withLock({ $0 }), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        let delay = appendDelay.withLock { $0 }
        if delay > .zero { try await Task.sleep(for: delay) }
        try await base.append(commands)
        batches.withLock { $0.append(commands.count) }
    }
    func insert(_ account: Account) async throws -> Account { try await base.insert(account) }
    func account(id: Int) async throws -> Account? {
        if unreachable.withLock({ $0 }) { throw Failure() }
        while hanging.withLock({ $0 }) { await Task { try? await Task.sleep(for: .milliseconds(10)) }.value }
        return try await base.account(id: id)
    }
    func account(email: String) async throws -> Account? { try await base.account(email: email) }
    func accounts(role: Role) async throws -> [Account] { try await base.accounts(role: role) }
    func update(_ account: Account) async throws { try await base.update(account) }
    func deleteAccount(id: Int) async throws { try await base.deleteAccount(id: id) }
    func insertToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await base.insertToken(hash: hash, accountID: accountID, expiresAt: expiresAt)
    }
    func token(hash: String) async throws -> (accountID: Int, expiresAt: Double)? { try await base.token(hash: hash) }
    func deleteToken(hash: String) async throws { try await base.deleteToken(hash: hash) }
    func deleteTokens(accountID: Int) async throws { try await base.deleteTokens(accountID: accountID) }
    func deleteTokens(accountID: Int, except kept: String) async throws {
        try await base.deleteTokens(accountID: accountID, except: kept)
    }
    func insertResetToken(hash: String, accountID: Int, expiresAt: Double) async throws {
        try await base.insertResetToken(hash: hash, accountID: accountID, expiresAt: expiresAt)
    }
    func consumeResetToken(hash: String, now: Double) async throws -> Int? { try await base.consumeResetToken(hash: hash, now: now) }
    func enqueue(_ message: OutboxMessage) async throws { try await base.enqueue(message) }
    func outbox() async throws -> [OutboxMessage] { try await base.outbox() }
}

/// Adding a driver is an account plus a core command; either both happen or neither.
@Suite struct DriverCreationTests {
    static let newDriver = """
        {"email":"tx-1@taxi.example","password":"driver-password","licence":"L-1","taxi_code":"TX-1"}
        """

    @Test func aFailedLogWriteLeavesNoHalfCreatedDriver() async throws {
        let store = FailingLogStore()
        let fixture = try await ServiceFixture(store: store)
        try await fixture.test { client in
            let admin = try await client.admin()
            store.failing.withLock { $0 = true }
            let failed = try await client.call(.post, "/v1/admin/drivers", token: admin, json: Self.newDriver)
            #expect(failed.status == .serviceUnavailable && failed.problem?.title == "storage-unavailable")
            #expect(try await store.account(email: "tx-1@taxi.example") == nil)
            let login = try await client.call(.post, "/v1/auth/login", json: #"{"email":"tx-1@taxi.example","password":"driver-password"}"#)
            #expect(login.status == .unauthorized)

            // Once the store is back, the same email, licence and taxi code are free again.
            store.failing.withLock { $0 = false }
            var retried = try await client.call(.post, "/v1/admin/drivers", token: admin, json: Self.newDriver)
            for _ in 0..<100 where retried.status == .serviceUnavailable {  // the host is rebuilding from the store
                try await Task.sleep(for: .milliseconds(10))
                retried = try await client.call(.post, "/v1/admin/drivers", token: admin, json: Self.newDriver)
            }
            #expect(retried.status == .created, "\(retried.text)")
            let id = try retried.decode(AccountBody.self).id
            #expect(await fixture.host.knowsDriver(DriverID(id)))
            #expect(try await client.call(.get, "/v1/admin/drivers", token: admin).text.components(separatedBy: "tx-1@").count == 2)
        }
    }
}
