import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// What the web console's pages need from the API: the public map, the driver's queue place and
/// ride points, the customer's taxi position, and problems that name the field at fault.
@Suite struct ConsoleAPITests {
    @Test func anyoneReadsTheMapButOnlyAdministratorsChangeIt() async throws {
        try await ServiceFixture().test { client in
            let city = try await client.call(.get, "/v1/city")
            #expect(city.status == .ok)
            let body = try city.decode(CityBody.self)
            #expect(body.width == 4000 && body.zoneCount == 9 && body.zones.count == 9)
            let change = try await client.call(.put, "/v1/city", json: #"{"width":1,"height":1,"zone_side":1}"#)
            #expect([.methodNotAllowed, .notFound].contains(change.status))
            #expect(try await client.call(.get, "/v1/city").decode(CityBody.self).width == 4000)
        }
    }

    @Test func anAvailableDriverSeesItsPlaceInTheZoneQueue() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let first = try await client.availableDriver("TX-1", adminToken: admin)
            let second = try await client.availableDriver("TX-2", adminToken: admin)
            let one = try await client.call(.get, "/v1/driver", token: first.token).decode(DriverBody.self)
            let two = try await client.call(.get, "/v1/driver", token: second.token).decode(DriverBody.self)
            #expect(one.zone == 0 && one.queuePosition == 1 && one.queueLength == 2)
            #expect(two.zone == 0 && two.queuePosition == 2 && two.queueLength == 2)
            try await client.call(.put, "/v1/driver/availability", token: first.token, json: #"{"available":false}"#)
            let off = try await client.call(.get, "/v1/driver", token: first.token).decode(DriverBody.self)
            #expect(off.queuePosition == nil && off.queueLength == nil)
            let moved = try await client.call(.get, "/v1/driver", token: second.token).decode(DriverBody.self)
            #expect(moved.queuePosition == 1 && moved.queueLength == 1)
        }
    }

    @Test func anOfferedDriverSeesThePickupAndDestination() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
            let offered = try await client.call(.get, "/v1/driver", token: driver.token).decode(DriverBody.self)
            #expect(offered.status == "offered")
            #expect(offered.pickup?.x == 900 && offered.pickup?.y == 400)
            #expect(offered.destination?.x == 3000 && offered.destination?.y == 3000)
        }
    }

    @Test func theCustomerIsToldWhereTheTaxiIsAndWhenPickedUp() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let events = await fixture.host.subscribe(.customer(CustomerID(customer.id)))
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            try await client.call(.put, "/v1/driver/position", token: driver.token, json: #"{"x":700,"y":450}"#)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token)
            var iterator = events.makeAsyncIterator()
            let assigned = await iterator.next()
            #expect(assigned?.kind == "taxi_assigned" && assigned?.x == 500 && assigned?.y == 500)
            let moved = await iterator.next()
            #expect(moved?.kind == "taxi_position" && moved?.x == 700 && moved?.y == 450 && moved?.ride == ride.id)
            #expect(await iterator.next()?.kind == "picked_up")
        }
    }

    @Test func problemsNameTheFieldAtFault() async throws {
        let fixture = try await ServiceFixture()
        let now = fixture.clock.now()
        try await fixture.test { client in
            let weak = try await client.call(.post, "/v1/accounts", json: #"{"email":"a@example.com","password":"short"}"#)
            #expect(weak.status == .unprocessableContent && weak.problem?.field == "password")
            let email = try await client.call(.post, "/v1/accounts", json: #"{"email":"nobody","password":"long enough"}"#)
            #expect(email.problem?.field == "email")
            let customer = try await client.customer("ana@example.com")
            let taken = try await client.call(.post, "/v1/accounts", json: #"{"email":"ana@example.com","password":"long enough"}"#)
            #expect(taken.status == .conflict && taken.problem?.field == "email")
            let outside = try await client.call(.post, "/v1/rides", token: customer.token,
                                                json: #"{"origin":{"x":900,"y":400},"destination":{"x":9000,"y":3000}}"#)
            #expect(outside.problem?.title == "position-outside-city" && outside.problem?.field == "destination")
            let soon = Date(timeIntervalSince1970: now + 3600).formatted(.iso8601)
            let reservation = try await client.call(.post, "/v1/reservations", token: customer.token, json: """
                {"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"meeting_time":"\(soon)"}
                """)
            #expect(reservation.problem?.title == "reservation-too-soon" && reservation.problem?.field == "meeting_time")
            #expect(reservation.problem?.detail.contains("at least 2 h") == true)
            let earliest = Date(timeIntervalSince1970: now + 7200).formatted(.iso8601)
            #expect(reservation.problem?.detail.contains(earliest) == true, "\(reservation.text)")
        }
    }
}
