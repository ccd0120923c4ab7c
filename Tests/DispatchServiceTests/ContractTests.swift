import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
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

    /// The `properties` of a component schema of the document.
    static func properties(_ schema: String) throws -> [String: [String: Any]] {
        let schemas = try #require((try OpenAPITests.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return try #require((schemas[schema] as? [String: Any])?["properties"] as? [String: [String: Any]])
    }

    @Test("a password is 8–128 code points, as the document's minLength/maxLength count, and every character counts")
    func passwordLengthIsCodePointsAndEveryCharacterCounts() async throws {
        let documented = try #require(try Self.properties("Registration")["password"])
        #expect(documented["minLength"] as? Int == AccountService.passwordLength.lowerBound)
        #expect(documented["maxLength"] as? Int == AccountService.passwordLength.upperBound)
        try await ServiceFixture().test { client in
            func register(_ email: String, _ password: String) async throws -> TestResponse {
                let body = try String(decoding: JSONEncoder().encode(["email": email, "password": password]), as: UTF8.self)
                return try await client.call(.post, "/v1/accounts", json: body)
            }
            func login(_ email: String, _ password: String) async throws -> HTTPResponse.Status {
                let body = try String(decoding: JSONEncoder().encode(["email": email, "password": password]), as: UTF8.self)
                return try await client.call(.post, "/v1/auth/login", json: body).status
            }
            // Three 4-byte characters are 12 bytes but 3 code points: too short.
            let short = try await register("a@example.com", "😀😀😀").status
            // 100 code points, 400 bytes: well past bcrypt's 72, accepted, and the last one matters.
            let long = String(repeating: "😀", count: 99) + "a"
            let longCreated = try await register("b@example.com", long).status
            let longLogin = try await login("b@example.com", long)
            let longOtherEnd = try await login("b@example.com", String(long.dropLast()) + "b")
            let tooLong = try await register("c@example.com", String(repeating: "x", count: 129)).status
            // bcrypt stops at a NUL: what follows it must still count.
            let withNUL = try await register("d@example.com", "abcdefgh\u{0}one").status
            let otherAfterNUL = try await login("d@example.com", "abcdefgh\u{0}two")
            let beforeNUL = try await login("d@example.com", "abcdefgh")
            #expect(short == .unprocessableContent && tooLong == .unprocessableContent)
            #expect(longCreated == .created && longLogin == .ok && longOtherEnd == .unauthorized)
            #expect(withNUL == .created && otherAfterNUL == .unauthorized && beforeNUL == .unauthorized)
        }
    }

    @Test("a time of day is accepted exactly when it matches the documented HH:MM pattern (00:00–24:00)")
    func clockRuleIsTheDocumentedPattern() throws {
        let bikeUntil = try #require(try Self.properties("Preferences")["bike_until"])
        let pattern = try Regex(try #require(bikeUntil["pattern"] as? String))
        for text in ["00:00", "09:30", "23:59", "24:00", "24:01", "25:00", "29:59", "9:00", "09:00:00", "09:60", "0900", "09:00\n", "٠٩:٠٠"] {
            let documented = text.wholeMatch(of: pattern) != nil
            let server = (try? PlannerInput.clock(text, field: "t")) != nil
            #expect(server == documented, "\(text.debugDescription): server \(server), document \(documented)")
        }
    }

    @Test("the document's means and weekday names are the ones the server reads")
    func enumNamesAreTheServers() throws {
        let means = try #require((try Self.properties("Preferences")["disabled_means"]?["items"] as? [String: Any])?["enum"] as? [String])
        #expect(means == TravelMeans.allCases.map(\.rawValue))
        let recurrence = try #require(try Self.properties("Recurrence")["weekdays"])
        #expect((recurrence["items"] as? [String: Any])?["enum"] as? [String] == Weekday.allCases.map(\.rawValue))
        #expect(recurrence["minItems"] as? Int == 1)
    }

    @Test("names, titles and templates are limited in code points, as maxLength counts, not in grapheme clusters")
    func lengthLimitsCountCodePoints() async throws {
        #expect(try Self.properties("Registration")["name"]?["maxLength"] as? Int == 200)
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let accented = String(repeating: "e\u{301}", count: 101)  // 202 code points, 101 characters
            let name = try await client.call(.patch, "/v1/me", token: token, json: #"{"name":"\#(accented)"}"#)
            #expect(name.status == .unprocessableContent && name.problem?.field == "name", "\(name.text)")
            let title = try await client.call(.post, "/v1/planner/appointments", token: token, json: """
                {"title":"\(accented)","date":"2025-03-14","place":{"x":100,"y":100},"start":"09:00","end":"10:00"}
                """)
            #expect(title.status == .unprocessableContent && title.problem?.field == "title", "\(title.text)")
        }
    }

    @Test("a planner field sent as null is refused naming it, on preferences and appointments")
    func plannerNullsAreRefused() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let preferences = try await client.call(.put, "/v1/planner/preferences", token: token, json: #"{"transit_until":null}"#)
            #expect(preferences.status == .unprocessableContent && preferences.problem?.field == "transit_until", "\(preferences.text)")
            let window = try await client.call(.post, "/v1/planner/appointments", token: token, json: """
                {"date":"2025-03-14","place":{"x":100,"y":100},"window":{"start":null,"end":"14:00"},"duration_min":30}
                """)
            #expect(window.status == .unprocessableContent && window.problem?.field == "window.start", "\(window.text)")
            let name = try await client.call(.post, "/v1/accounts", json: #"{"email":"b@example.com","password":"long enough","name":null}"#)
            #expect(name.status == .badRequest, "\(name.text)")
        }
    }

    @Test("a template named twice is one template switching off the means of both entries")
    func duplicateTemplateNamesMerge() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let saved = try await client.call(.put, "/v1/planner/preferences", token: token, json: """
                {"templates":[{"name":"gym","disabled_means":["car"]},{"name":"gym","disabled_means":["taxi"]}]}
                """)
            #expect(saved.status == .ok, "\(saved.text)")
            let profile = try saved.decode(PlannerProfile.self)
            #expect(profile.templates.count == 1 && Set(profile.templates[0].disabledMeans) == [.ownCar, .taxi])
        }
    }

    @Test("every integer the document names is bounded to 64 bits, as the server's Int reads them")
    func integersAreBounded() async throws {
        var unbounded: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if object["type"] as? String == "integer", object["maximum"] == nil || object["minimum"] == nil { unbounded.append(path) }
                for (key, child) in object { walk(child, path + "/" + key) }
            } else if let array = value as? [Any] {
                for (index, child) in array.enumerated() { walk(child, path + "/\(index)") }
            }
        }
        walk(try OpenAPITests.document(), "")
        #expect(unbounded.isEmpty, "\(unbounded)")
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            let huge = try await client.call(.post, "/v1/planner/days/2025-03-14/primary", token: token,
                                             json: #"{"appointment_id":9223372036854775807}"#)
            #expect(huge.status == .notFound, "\(huge.text)")
            let beyond = try await client.call(.post, "/v1/planner/days/2025-03-14/primary", token: token,
                                               json: #"{"appointment_id":9223372036854775808}"#)
            #expect(beyond.status.code / 100 == 4, "\(beyond.text)")
        }
    }
}
