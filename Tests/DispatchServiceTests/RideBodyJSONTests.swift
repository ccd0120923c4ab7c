import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// The ride body written by hand is byte for byte what the context's `JSONEncoder` writes.
@Suite struct RideBodyJSONTests {
    static let rides = [
        #"{"destination":{"x":3000,"y":3000},"fare_charged":0,"id":1,"kind":"immediate","origin":{"x":900,"y":400},"requested_at":"2026-11-23T15:00:00Z","status":"rejected"}"#,
        #"{"destination":{"x":0.1,"y":1e-07},"eta_seconds":12.5,"fare_charged":17.25,"id":42,"kind":"reservation","meeting_time":"2026-11-23T16:30:00Z","origin":{"x":-0,"y":1e+20},"requested_at":"2026-11-23T15:00:01Z","status":"picked_up","taxi_code":"TX-1"}"#,
        #"{"destination":{"x":1,"y":2},"fare_charged":1,"id":7,"kind":"immediate","origin":{"x":3,"y":4},"requested_at":"1970-01-01T00:00:00Z","status":"accepted","taxi_code":"T\/X \"9\" é"}"#,
    ]

    static func decoded(_ json: String) throws -> RideBody {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(RideBody.self, from: Data(json.utf8))
    }

    static func encodedByContext(_ ride: RideBody) throws -> String {
        String(decoding: try ServiceRequestContext.sharedEncoder.encode(ride), as: UTF8.self)
    }

    @Test(arguments: rides) func sameBytesAsTheEncoder(_ json: String) throws {
        let ride = try Self.decoded(json)
        #expect(try ride.json() == Self.encodedByContext(ride))
        #expect(try ride.json() == json)
    }

    @Test func fractionalSecondsAsTheEncoderWritesThem() throws {
        var ride = try Self.decoded(Self.rides[1])
        ride.requestedAt = Date(timeIntervalSince1970: 1_795_000_000.75)
        ride.meetingTime = Date(timeIntervalSince1970: 1_795_000_000.999_9)
        #expect(try ride.json() == Self.encodedByContext(ride))
    }

    @Test func datesAreWrittenAsFoundationsISO8601FormatWritesThem() {
        var dates: [Double] = [0, 0.999, 59, 86_399.5, 86_400, 951_782_400, 951_868_800, 4_107_542_400,
                               4_107_628_800, 253_402_300_799.9, 253_402_300_800, -1, -0.5, -86_401]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { dates.append(Double.random(in: 0..<253_402_300_800, using: &generator)) }
        for _ in 0..<200 { dates.append(Double(Int.random(in: 0..<4_102_444_800, using: &generator))) }
        for seconds in dates {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(JSONText.iso8601(date) == date.formatted(.iso8601), "\(seconds)")
        }
    }

    @Test func nonFiniteNumbersAreRefusedAsByTheEncoder() throws {
        var ride = try Self.decoded(Self.rides[0])
        ride.etaSeconds = .infinity
        #expect(throws: EncodingError.self) { try Self.encodedByContext(ride) }
        #expect(throws: EncodingError.self) { try ride.json() }
    }

    @Test func rideRequestAnswersWithTheEncodersBytesAndHeaders() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let customer = try await client.customer("ana@example.com")
            let created = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
            #expect(created.status == .created)
            #expect(created.headers[.contentType] == "application/json; charset=utf-8")
            #expect(created.headers[.contentLength] == "\(created.body.readableBytes)")
            #expect(try created.text == Self.encodedByContext(created.decode(RideBody.self)))
        }
    }
}
