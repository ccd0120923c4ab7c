import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Bad input gets an RFC 9457 problem document with a 4xx status and a stable type, never a 5xx.
@Suite struct ProblemTests {
    @Test func nanCoordinateInAQuery() async throws {
        try await ServiceFixture().test { client in
            let response = try await client.call(.get, "/v1/queue?x=NaN&y=100")
            #expect(response.status == .unprocessableContent)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect(response.problem == Problem.Document(
                type: "urn:citysim:problem:position-outside-city", title: "position-outside-city", status: 422,
                detail: response.problem?.detail ?? ""))
            #expect(try await client.call(.get, "/v1/eta?x=abc&y=1").status == .badRequest)
            #expect(try await client.call(.get, "/v1/eta?y=1").status == .badRequest)
            #expect(try await client.call(.get, "/v1/queue?x=-5&y=1").status == .unprocessableContent)
        }
    }

    @Test func nanOrMissingCoordinateInABody() async throws {
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            for json in [#"{"origin":{"x":"NaN","y":1},"destination":{"x":1,"y":1}}"#,
                         #"{"origin":{"x":1e999,"y":1},"destination":{"x":1,"y":1}}"#,
                         #"{"origin":{"y":1},"destination":{"x":1,"y":1}}"#, "not json"] {
                let response = try await client.call(.post, "/v1/rides", token: customer.token, json: json)
                #expect(response.status == .badRequest, "\(json): \(response.text)")
                #expect(response.problem?.title == "invalid-request")
            }
            let outside = try await client.call(.post, "/v1/rides", token: customer.token,
                                                json: #"{"origin":{"x":1,"y":1},"destination":{"x":99999,"y":1}}"#)
            #expect(outside.status == .unprocessableContent)
            let patience = try await client.call(.post, "/v1/rides", token: customer.token,
                                                 json: #"{"origin":{"x":1,"y":1},"destination":{"x":2,"y":1},"patience_s":-1}"#)
            #expect(patience.status == .unprocessableContent && patience.problem?.title == "invalid-patience")
        }
    }

    @Test func unknownRideAndUnknownRoute() async throws {
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            let unknown = try await client.call(.get, "/v1/rides/12345", token: customer.token)
            #expect(unknown.status == .notFound && unknown.problem?.title == "unknown-ride")
            #expect(try await client.call(.delete, "/v1/rides/not-a-number", token: customer.token).status == .notFound)
            let route = try await client.call(.get, "/v1/nothing-here")
            #expect(route.status == .notFound && route.headers[.contentType] == "application/problem+json")
        }
    }

    @Test func cancelAfterAcceptanceIsAConflict() async throws {  // D10
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            let cancel = try await client.call(.delete, "/v1/rides/\(ride.id)", token: customer.token)
            #expect(cancel.status == .conflict && cancel.problem?.type == "urn:citysim:problem:illegal-ride-state")
            let second = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
            #expect(second.status == .conflict && second.problem?.title == "open-ride-exists")  // D12
        }
    }

    @Test func driverStateConflicts() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let again = try await client.call(.post, "/v1/driver/shift", token: driver.token,
                                              json: #"{"action":"start","position":{"x":1,"y":1}}"#)
            #expect(again.status == .conflict && again.problem?.title == "illegal-driver-state")
            let action = try await client.call(.post, "/v1/driver/shift", token: driver.token, json: #"{"action":"nap"}"#)
            #expect(action.status == .badRequest)
            let duplicate = try await client.call(.post, "/v1/admin/drivers", token: admin, json: """
                {"email":"other@taxi.example","password":"driver-password","licence":"L-TX-1","taxi_code":"TX-9"}
                """)
            #expect(duplicate.status == .conflict && duplicate.problem?.detail.contains("licence") == true)
        }
    }

    @Test func oversizedBodyIs413() async throws {
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            let padding = String(repeating: " ", count: 20_000)
            let response = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON + padding)
            #expect(response.status == .contentTooLarge)
            #expect(response.problem?.title == "body-too-large")
        }
    }
}
