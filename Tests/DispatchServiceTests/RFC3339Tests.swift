import Foundation
import Testing
@testable import DispatchService

/// `format: date-time` and `format: date` read exactly as RFC 3339 §5.6 writes them (what schemathesis
/// and JSON Schema validators accept), for `meeting_time` and every date in a path, query or body.
@Suite struct RFC3339Tests {
    /// 2025-03-14T10:00:00Z.
    static let base = 1_741_946_400.0

    @Test("every date-time form the document allows is read, at the instant it names")
    func everyDocumentedDateTimeFormIsRead() throws {
        let forms: [(String, Double)] = [
            ("2025-03-14T10:00:00Z", 0),
            ("2025-03-14t10:00:00z", 0),                       // lower-case T and Z
            ("2025-03-14T10:00:00.5Z", 0.5),                   // a fraction …
            ("2025-03-14T10:00:00.123456789Z", 0.123456789),   // … of any length
            ("2025-03-14T11:30:00+01:30", 0),                  // numeric offsets
            ("2025-03-14T05:00:00-05:00", 0),
            ("2025-03-14T10:00:00-00:00", 0),                  // unknown local offset: UTC
            ("2025-03-15T00:00:00+14:00", 0),
        ]
        for (text, offset) in forms {
            let date = try #require(RFC3339.dateTime(text), "\(text) refused")
            #expect(abs(date.timeIntervalSince1970 - (Self.base + offset)) < 1e-6, "\(text) → \(date.timeIntervalSince1970)")
        }
    }

    @Test("a leap second is read at 23:59:60 UTC only, as the instant after 23:59:59")
    func leapSecondOnlyAtTheEndOfTheUTCDay() throws {
        let midnight = 1_483_228_800.0  // 2017-01-01T00:00:00Z
        #expect(RFC3339.dateTime("2016-12-31T23:59:60Z")?.timeIntervalSince1970 == midnight)
        #expect(RFC3339.dateTime("2017-01-01T00:59:60+01:00")?.timeIntervalSince1970 == midnight)
        #expect(RFC3339.dateTime("2016-12-31T10:00:60Z") == nil)
        #expect(RFC3339.dateTime("2016-12-31T23:59:60+01:00") == nil)
    }

    @Test("texts that are not the date-time production are refused")
    func otherTextsAreRefused() {
        for text in ["2025-03-14 10:00:00Z", "2025-03-14T10:00Z", "2025-03-14T10:00:00", "2025-03-14T10:00:00+0100",
                     "2025-03-14T24:00:00Z", "2025-03-14T10:60:00Z", "2025-03-14T10:00:00+24:00", "2025-02-29T10:00:00Z",
                     "2025-03-14T10:00:00.Z", "2025-03-14T10:00:00Z\n", " 2025-03-14T10:00:00Z", "20250314T100000Z", ""] {
            #expect(RFC3339.dateTime(text) == nil, "\(text.debugDescription) accepted")
        }
    }

    @Test("a full-date has four, two and two digits and a day inside its month")
    func fullDateIsStrict() {
        #expect(RFC3339.fullDate("2024-02-29")! == (2024, 2, 29))
        #expect(RFC3339.fullDate("0000-01-01")! == (0, 1, 1))
        for text in ["2025-02-29", "20250314", "2025-3-14", "+025-03-14", "2025-03-14T", "2025-13-01", "2025-04-31", "2025-03-14\n"] {
            #expect(RFC3339.fullDate(text) == nil, "\(text.debugDescription) accepted")
        }
    }

    @Test("a reservation's meeting_time may use any RFC 3339 form, and the ride shows that instant")
    func reservationTakesAnyRFC3339Form() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let customer = try await client.customer("ana@example.com")
            // 2023-11-15T01:13:20.25Z (the fixture clock's now + 3 h), written with a +05:30 offset and lower-case t.
            let json = #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"meeting_time":"2023-11-15t06:43:20.25+05:30"}"#
            let created = try await client.call(.post, "/v1/reservations", token: customer.token, json: json)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.text.contains(#""meeting_time":"2023-11-15T01:13:20Z""#), "\(created.text)")
            let spaced = json.replacingOccurrences(of: "t06", with: " 06")
            let refused = try await client.call(.post, "/v1/reservations", token: customer.token, json: spaced)
            #expect(refused.status == .badRequest && refused.text.contains("RFC 3339"), "\(refused.text)")
        }
    }

    @Test("a path date that is not a full-date is refused with 422 naming it")
    func pathDateMustBeFullDate() async throws {
        try await ServiceFixture().test { client in
            let (_, token) = try await client.customer("ana@example.com")
            for date in ["20250314", "2025-02-29"] {
                let day = try await client.call(.get, "/v1/planner/days/\(date)", token: token)
                #expect(day.status == .unprocessableContent && day.problem?.field == "date", "\(date): \(day.text)")
            }
        }
    }
}
