import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// The server refuses what the OpenAPI document does not allow, as the schemathesis run
/// (`Scripts/api-contract.sh`) expects.
@Suite struct ContractTests {
    @Test("an optional field sent as null is refused (400, or 422 naming it on planner routes), not taken as left out")
    func nullIsNotAbsent() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let nullPassword = try await client.call(.patch, "/v1/me", token: token, json: #"{"new_password":null}"#)
            #expect(nullPassword.status == .badRequest, "\(nullPassword.text)")
            let wrongType = try await client.call(.patch, "/v1/me", token: token, json: #"{"new_password":12345678}"#)
            #expect(wrongType.status == .badRequest, "\(wrongType.text)")
            let absent = try await client.call(.patch, "/v1/me", token: token, json: #"{"name":"Ana"}"#)
            #expect(absent.status == .ok, "\(absent.text)")
            let admin = try await client.admin()
            let nullStrikes = try await client.call(.put, "/v1/admin/conditions/2026-03-02", token: admin, json: #"{"strikes":null}"#)
            #expect(nullStrikes.status == .unprocessableContent && nullStrikes.problem?.field == "strikes", "\(nullStrikes.text)")
            let nullInside = try await client.call(.put, "/v1/admin/conditions/2026-03-02", token: admin,
                                                   json: #"{"strikes":[{"from":"10:00","until":null}]}"#)
            #expect(nullInside.status == .unprocessableContent && nullInside.problem?.field == "strikes[0].until", "\(nullInside.text)")
            let nullInString = try await client.call(.patch, "/v1/me", token: token, json: #"{"name":"null \"n\" Ana"}"#)
            #expect(nullInString.status == .ok, "\(nullInString.text)")
            let noStrikes = try await client.call(.put, "/v1/admin/conditions/2026-03-02", token: admin, json: #"{"rain_hours":[3]}"#)
            #expect(noStrikes.status == .ok, "\(noStrikes.text)")
        }
    }

    @Test("an email is accepted exactly when it matches the documented pattern: one @, both sides, no blanks")
    func emailRuleIsTheDocumentedPattern() async throws {
        let document = try OpenAPITests.document()
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let email = try #require(((schemas["Registration"] as? [String: Any])?["properties"] as? [String: Any])?["email"] as? [String: Any])
        let pattern = try Regex(try #require(email["pattern"] as? String))
        let cases = ["ana@example.com", "A@B", " ana@example.com", "ana@example.com\n", "a@@b", "@b", "a@", "an a@b", "a\tb@c",
                     "é@ü", String(repeating: "a", count: 250) + "@b.c", String(repeating: "a", count: 251) + "@b.c"]
        for text in cases {
            let documented = text.wholeMatch(of: pattern) != nil && text.unicodeScalars.count <= 254
            #expect(AccountService.isEmail(text) == documented, "\(text.debugDescription): server \(AccountService.isEmail(text)), document \(documented)")
        }
    }
}
