import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Registration, login, token expiry, rate limits and password reset through the router.
@Suite struct AccountTests {
    @Test func registerLoginAndMe() async throws {
        try await ServiceFixture().test { client in
            let (id, token) = try await client.customer("ana@example.com")
            let me = try await client.call(.get, "/v1/me", token: token)
            #expect(me.status == .ok)
            let account = try me.decode(AccountBody.self)
            #expect(account.id == id && account.role == .customer && account.email == "ana@example.com")
        }
    }

    @Test func tokensExpire() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let (_, token) = try await client.customer("ana@example.com")
            fixture.clock.advance(by: 3_599)
            #expect(try await client.call(.get, "/v1/me", token: token).status == .ok)
            fixture.clock.advance(by: 2)
            let expired = try await client.call(.get, "/v1/me", token: token)
            #expect(expired.status == .unauthorized)
            #expect(expired.problem?.type == "urn:citysim:problem:unauthenticated")
            #expect(expired.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test func logoutEndsTheSession() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            #expect(try await client.call(.delete, "/v1/auth/token", token: token).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: token).status == .unauthorized)
        }
    }

    @Test func wrongPasswordAndUnknownEmailGetTheSameAnswer() async throws {
        try await ServiceFixture().test { client in
            _ = try await client.customer("ana@example.com")
            let wrong = try await client.call(.post, "/v1/auth/login", json: #"{"email":"ana@example.com","password":"nope-nope"}"#)
            let unknown = try await client.call(.post, "/v1/auth/login", json: #"{"email":"bob@example.com","password":"nope-nope"}"#)
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(wrong.problem?.type == unknown.problem?.type)
        }
    }

    @Test func duplicateEmailAndWeakPasswordAreRefused() async throws {
        try await ServiceFixture().test { client in
            _ = try await client.customer("ana@example.com")
            let again = try await client.call(.post, "/v1/accounts", json: #"{"email":"ANA@example.com","password":"another-password"}"#)
            #expect(again.status == .conflict && again.problem?.title == "taken")
            let weak = try await client.call(.post, "/v1/accounts", json: #"{"email":"bob@example.com","password":"short"}"#)
            #expect(weak.status == .unprocessableContent && weak.problem?.title == "invalid-input")
        }
    }

    @Test func loginsAreRateLimitedPerAccount() async throws {
        try await ServiceFixture().test { client in
            _ = try await client.customer("ana@example.com")  // one login spent
            for _ in 0..<4 {
                let r = try await client.call(.post, "/v1/auth/login", json: #"{"email":"ana@example.com","password":"wrong-pass"}"#)
                #expect(r.status == .unauthorized)
            }
            let limited = try await client.call(.post, "/v1/auth/login", json: #"{"email":"ana@example.com","password":"customer-password"}"#)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.problem?.title == "too-many-attempts")
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test func passwordResetByOneTimeTokenFromTheOutbox() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let (_, oldToken) = try await client.customer("ana@example.com")
            let asked = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"ana@example.com"}"#)
            #expect(asked.status == .accepted)
            let unknown = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"nobody@example.com"}"#)
            #expect(unknown.status == .accepted)  // the answer does not reveal which emails exist
            let outbox = try await fixture.store.outbox()
            #expect(outbox.count == 1 && outbox[0].recipient == "ana@example.com")
            let token = try #require(outbox[0].body.split(separator: " ").last.map(String.init))
            let reset = #"{"token":"\#(token)","new_password":"brand-new-password"}"#
            #expect(try await client.call(.post, "/v1/auth/password-reset/confirm", json: reset).status == .noContent)
            #expect(try await client.call(.post, "/v1/auth/password-reset/confirm", json: reset).status == .badRequest)  // one time
            #expect(try await client.call(.get, "/v1/me", token: oldToken).status == .unauthorized)
            _ = try await client.login("ana@example.com", "brand-new-password")
        }
    }

    @Test func passwordsAreStoredAsBcryptHashes() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in _ = try await client.customer("ana@example.com") }
        let stored = try #require(try await fixture.store.account(email: "ana@example.com"))
        #expect(stored.passwordHash.hasPrefix("$2") && !stored.passwordHash.contains("customer-password"))
    }
}

/// The login rate limiter on its own.
@Suite struct TokenBucketTests {
    @Test func refillsOverTime() {
        let bucket = TokenBucket(capacity: 2, refillPerSecond: 0.5)
        #expect(bucket.take("k", now: 0) && bucket.take("k", now: 0))
        #expect(!bucket.take("k", now: 0))
        #expect(bucket.retryAfter("k", now: 0) == 2)
        #expect(bucket.take("k", now: 2))
        #expect(bucket.take("other", now: 2))
    }
}

/// Many accounts behind one address share a larger per-address budget.
@Suite struct ClientRateLimitTests {
    @Test func loginsAreRateLimitedPerClientAddress() async throws {
        try await ServiceFixture().test { client in
            var statuses: [HTTPResponse.Status] = []
            for n in 0..<31 {
                let json = #"{"email":"user\#(n)@example.com","password":"wrong-pass"}"#
                statuses.append(try await client.call(.post, "/v1/auth/login", json: json).status)
            }
            #expect(statuses.dropLast().allSatisfy { $0 == .unauthorized })
            #expect(statuses.last == .tooManyRequests)
        }
    }
}
