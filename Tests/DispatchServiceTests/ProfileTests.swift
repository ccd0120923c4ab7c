import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// A signed-in caller reads and edits their own profile (requirements: customer "edit profile").
@Suite struct ProfileTests {
    @Test func nameChangeIsKept() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let changed = try await client.call(.patch, "/v1/me", token: token, json: #"{"name":"Ana Bell"}"#)
            #expect(changed.status == .ok)
            #expect(try changed.decode(AccountBody.self).name == "Ana Bell")
            #expect(try await client.call(.get, "/v1/me", token: token).decode(AccountBody.self).name == "Ana Bell")
        }
    }

    @Test func passwordChangeNeedsTheCurrentPasswordAndEndsOtherSessions() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let other = try await client.login("ana@example.com", "customer-password")
            let missing = try await client.call(.patch, "/v1/me", token: token, json: #"{"new_password":"brand-new-password"}"#)
            #expect(missing.status == .unprocessableContent && missing.problem?.title == "invalid-input")
            let wrong = try await client.call(.patch, "/v1/me", token: token,
                                              json: #"{"current_password":"not-my-password","new_password":"brand-new-password"}"#)
            #expect(wrong.status == .forbidden && wrong.problem?.title == "wrong-password")
            #expect(try await client.call(.get, "/v1/me", token: other).status == .ok)  // nothing changed yet

            let changed = try await client.call(.patch, "/v1/me", token: token,
                                                json: #"{"current_password":"customer-password","new_password":"brand-new-password"}"#)
            #expect(changed.status == .ok)
            #expect(try await client.call(.get, "/v1/me", token: token).status == .ok)  // this session goes on
            #expect(try await client.call(.get, "/v1/me", token: other).status == .unauthorized)
            let old = try await client.call(.post, "/v1/auth/login", json: #"{"email":"ana@example.com","password":"customer-password"}"#)
            #expect(old.status == .unauthorized)
            fixture.clock.advance(by: 60)  // password checks share the account's login budget (5 a minute)
            _ = try await client.login("ana@example.com", "brand-new-password")
        }
    }

    @Test func badProfileInputIsA4xx() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let long = String(repeating: "n", count: 201)
            let tooLong = try await client.call(.patch, "/v1/me", token: token, json: #"{"name":"\#(long)"}"#)
            #expect(tooLong.status == .unprocessableContent)
            let weak = try await client.call(.patch, "/v1/me", token: token,
                                             json: #"{"current_password":"customer-password","new_password":"short"}"#)
            #expect(weak.status == .unprocessableContent && weak.problem?.title == "invalid-input")
            #expect(try await client.call(.patch, "/v1/me", token: token, json: #"{"name":7}"#).status == .badRequest)
        }
    }
}
