import DispatchCore
import Foundation
import Testing
import TripPlanner
@testable import DispatchService

/// The `DispatchStore` and `PlannerStore` contract, one check per function, run on every engine by
/// `StoreContractTests` (memory, SQLite) and `PostgresStoreContractTests`.
enum StoreContract {
    static func logged(_ sequence: Int64, _ command: Command) -> LoggedCommand {
        LoggedCommand(sequence: sequence, time: 1_700_000_000 + Double(sequence) / 4, command: command)
    }

    static func driver(_ n: Int, email: String? = nil) -> Account {
        Account(email: email ?? "driver\(n)@taxi.example", name: "D\(n)", role: .driver, passwordHash: "hash-\(n)",
                licence: "L-\(n)", taxiCode: "TX-\(n)")
    }

    /// Batches come back whole, in sequence order, on a store opened afterwards.
    static func appendedBatchesComeBackInOrder(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let first = [logged(1, .addDriver(DriverID(1), taxiCode: "TX-1")),
                         logged(2, .startShift(DriverID(1), at: Position(x: 1.5, y: 2.25))),
                         logged(3, .setAvailable(DriverID(1), true))]
            let second = [logged(4, .setAvailable(DriverID(1), false))]
            let store = try await site.open()
            try await store.append(first)
            try await store.append([])
            try await store.append(second)
            #expect(try await store.commands() == first + second)
            #expect(try await site.open().commands() == first + second)
        }
    }

    /// A batch that fails part-way (a sequence already logged) stores none of its commands.
    static func aFailedAppendStoresNone(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let kept = [logged(1, .addDriver(DriverID(1), taxiCode: "TX-1")), logged(2, .setAvailable(DriverID(1), true))]
            try await store.append(kept)
            await #expect(throws: (any Error).self) {
                try await store.append([logged(3, .setAvailable(DriverID(1), false)), logged(2, .setAvailable(DriverID(1), true))])
            }
            #expect(try await store.commands() == kept)
        }
    }

    /// Taken emails (in any case), licences and taxi codes are refused by name, on insert and update.
    static func duplicatesAreRefusedByColumn(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            _ = try await store.insert(driver(1))
            let second = try await store.insert(driver(2))
            await #expect(throws: StoreError.duplicate("email")) {
                var copy = driver(3, email: "DRIVER1@taxi.example"); copy.licence = nil; copy.taxiCode = nil
                _ = try await store.insert(copy)
            }
            await #expect(throws: StoreError.duplicate("licence")) {
                var copy = driver(3); copy.licence = "L-1"
                _ = try await store.insert(copy)
            }
            await #expect(throws: StoreError.duplicate("taxi code")) {
                var copy = driver(3); copy.taxiCode = "TX-1"
                _ = try await store.insert(copy)
            }
            await #expect(throws: StoreError.duplicate("taxi code")) {
                var changed = second; changed.taxiCode = "TX-1"
                try await store.update(changed)
            }
            #expect(try await store.accounts(role: .driver).count == 2)
        }
    }

    /// Accounts get ids, are found by id and lower-cased email, by role in id order, updated and deleted.
    static func accountsRoundTrip(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let first = try await store.insert(driver(1, email: "Ana@Taxi.example"))
            let customer = try await store.insert(Account(email: "c@example.com", name: "C", role: .customer, passwordHash: "h"))
            let second = try await store.insert(driver(2))
            #expect(first.id > 0 && customer.id > first.id && second.id > customer.id)
            #expect(first.email == "ana@taxi.example")
            #expect(try await store.account(email: "ANA@taxi.EXAMPLE") == first)
            #expect(try await store.account(id: customer.id) == customer)
            #expect(try await store.accounts(role: .driver) == [first, second])
            var changed = first
            changed.name = "Ana B"; changed.disabled = true; changed.licence = nil
            try await store.update(changed)
            #expect(try await site.open().account(id: first.id) == changed)
            await #expect(throws: StoreError.unknownAccount(9_999)) {
                var ghost = changed; ghost.id = 9_999; ghost.email = "ghost@example.com"
                try await store.update(ghost)
            }
            try await store.deleteAccount(id: second.id)
            #expect(try await store.account(id: second.id) == nil)
        }
    }

    /// Bearer tokens: stored by hash, deleted one by one, all of an account, or all but the caller's.
    static func tokensAreStoredAndDeleted(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let ana = try await store.insert(driver(1)).id, bob = try await store.insert(driver(2)).id
            for (hash, account) in [("a1", ana), ("a2", ana), ("a3", ana), ("b1", bob)] {
                try await store.insertToken(hash: hash, accountID: account, expiresAt: 1_000.5)
            }
            #expect(try await store.token(hash: "a1")?.accountID == ana)
            #expect(try await store.token(hash: "a1")?.expiresAt == 1_000.5)
            try await store.deleteTokens(accountID: ana, except: "a2")
            #expect(try await store.token(hash: "a1") == nil)
            #expect(try await store.token(hash: "a3") == nil)
            #expect(try await store.token(hash: "a2")?.accountID == ana)
            try await store.deleteToken(hash: "a2")
            #expect(try await store.token(hash: "a2") == nil)
            try await store.deleteTokens(accountID: bob)
            #expect(try await site.open().token(hash: "b1") == nil)
        }
    }

    /// A reset token works once and only before it expires; an expired one is gone too.
    static func resetTokensAreConsumedOnce(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let ana = try await store.insert(driver(1)).id
            try await store.insertResetToken(hash: "fresh", accountID: ana, expiresAt: 200)
            try await store.insertResetToken(hash: "stale", accountID: ana, expiresAt: 100)
            #expect(try await store.consumeResetToken(hash: "fresh", now: 150) == ana)
            #expect(try await store.consumeResetToken(hash: "fresh", now: 150) == nil)
            #expect(try await store.consumeResetToken(hash: "stale", now: 150) == nil)
            #expect(try await store.consumeResetToken(hash: "unknown", now: 0) == nil)
        }
    }

    /// The outbox keeps messages in the order they were queued.
    static func outboxKeepsOrder(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let messages = (1...3).map { OutboxMessage(recipient: "r\($0)@example.com", subject: "S\($0)", body: "B\($0)\nline",
                                                       createdAt: Double($0) + 0.25) }
            for message in messages { try await store.enqueue(message) }
            #expect(try await site.open().outbox() == messages)
        }
    }
}
