import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Every protected route, called by every role it is not for (401 for guests, 403 for the
/// others), and with another user's ids (404: the resource is not theirs to see).
@Suite struct SecurityTests {
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var json: String?
        var roles: Set<Role>
    }

    static let routes: [Route] = [
        Route(method: .get, path: "/v1/me", roles: [.customer, .driver, .admin]),
        Route(method: .patch, path: "/v1/me", json: #"{"name":"X"}"#, roles: [.customer, .driver, .admin]),
        Route(method: .delete, path: "/v1/auth/token", roles: [.customer, .driver, .admin]),
        Route(method: .post, path: "/v1/rides", json: rideJSON, roles: [.customer]),
        Route(method: .post, path: "/v1/reservations", json: rideJSON, roles: [.customer]),
        Route(method: .get, path: "/v1/rides", roles: [.customer]),
        Route(method: .get, path: "/v1/rides/1", roles: [.customer]),
        Route(method: .delete, path: "/v1/rides/1", roles: [.customer]),
        Route(method: .get, path: "/v1/rides/1/events", roles: [.customer]),
        Route(method: .get, path: "/v1/events", roles: [.customer]),
        Route(method: .post, path: "/v1/rides/1/report", roles: [.customer, .driver]),
        Route(method: .get, path: "/v1/driver", roles: [.driver]),
        Route(method: .get, path: "/v1/driver/events", roles: [.driver]),
        Route(method: .post, path: "/v1/driver/shift", json: #"{"action":"end"}"#, roles: [.driver]),
        Route(method: .put, path: "/v1/driver/availability", json: #"{"available":true}"#, roles: [.driver]),
        Route(method: .put, path: "/v1/driver/position", json: #"{"x":1,"y":1}"#, roles: [.driver]),
        Route(method: .post, path: "/v1/driver/offers/1/accept", roles: [.driver]),
        Route(method: .post, path: "/v1/driver/offers/1/decline", roles: [.driver]),
        Route(method: .post, path: "/v1/driver/rides/1/pickup", roles: [.driver]),
        Route(method: .post, path: "/v1/driver/rides/1/dropoff", json: #"{"x":1,"y":1}"#, roles: [.driver]),
        Route(method: .post, path: "/v1/admin/drivers", json: #"{"email":"x@y.z","password":"12345678","licence":"L","taxi_code":"T"}"#,
              roles: [.admin]),
        Route(method: .get, path: "/v1/admin/drivers", roles: [.admin]),
        Route(method: .delete, path: "/v1/admin/drivers/2", roles: [.admin]),
        Route(method: .post, path: "/v1/admin/drivers/2/invalidate", roles: [.admin]),
        Route(method: .get, path: "/v1/admin/conditions/2025-03-14", roles: [.admin]),
        Route(method: .put, path: "/v1/admin/conditions/2025-03-14", json: #"{"rain_hours":[13]}"#, roles: [.admin]),
        Route(method: .post, path: "/v1/planner/appointments", json: PlannerDay.work, roles: [.customer]),
        Route(method: .get, path: "/v1/planner/appointments", roles: [.customer]),
        Route(method: .get, path: "/v1/planner/appointments?date=2025-03-14", roles: [.customer]),
        Route(method: .get, path: "/v1/planner/appointments/1", roles: [.customer]),
        Route(method: .put, path: "/v1/planner/appointments/1", json: PlannerDay.work, roles: [.customer]),
        Route(method: .delete, path: "/v1/planner/appointments/1", roles: [.customer]),
        Route(method: .post, path: "/v1/planner/appointments/1/cancel", roles: [.customer]),
        Route(method: .get, path: "/v1/planner/preferences", roles: [.customer]),
        Route(method: .put, path: "/v1/planner/preferences", json: PlannerDay.cyclist, roles: [.customer]),
        Route(method: .get, path: "/v1/planner/days/2025-03-14", roles: [.customer]),
        Route(method: .post, path: "/v1/planner/days/2025-03-14/primary", json: #"{"appointment_id":1}"#, roles: [.customer]),
        Route(method: .post, path: "/v1/planner/days/2025-03-14/book", roles: [.customer]),
        Route(method: .get, path: "/v1/admin/city", roles: [.admin]),
        Route(method: .put, path: "/v1/admin/city", json: #"{"width":4000,"height":4000,"zone_side":1000}"#, roles: [.admin]),
        Route(method: .get, path: "/v1/admin/state", roles: [.admin]),
    ]

    @Test func everyRouteRefusesGuestsAndOtherRoles() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let tokens: [Role: String] = [.admin: admin, .driver: driver.token, .customer: customer.token]
            for route in Self.routes {
                let guest = try await client.call(route.method, route.path, json: route.json)
                #expect(guest.status == .unauthorized, "guest \(route.method) \(route.path): \(guest.status)")
                for (role, token) in tokens where !route.roles.contains(role) {
                    let response = try await client.call(route.method, route.path, token: token, json: route.json)
                    #expect(response.status == .forbidden, "\(role) \(route.method) \(route.path): \(response.status)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                }
            }
            let forged = try await client.call(.get, "/v1/me", token: "forged-token")
            #expect(forged.status == .unauthorized)
        }
    }

    @Test func anotherCustomersRideIsInvisible() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let ana = try await client.customer("ana@example.com")
            let bob = try await client.customer("bob@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            for (method, path) in [(HTTPRequest.Method.get, "/v1/rides/\(ride.id)"), (.delete, "/v1/rides/\(ride.id)"),
                                   (.post, "/v1/rides/\(ride.id)/report")] {
                let response = try await client.call(method, path, token: bob.token)
                #expect(response.status == .notFound, "bob \(method) \(path): \(response.status)")
            }
            #expect(try await client.call(.get, "/v1/rides", token: bob.token).decode(RideList.self).rides.isEmpty)
            #expect(try await client.call(.get, "/v1/rides/\(ride.id)", token: ana.token).status == .ok)
            _ = driver
        }
    }

    @Test func anotherDriversOfferAndRideAreInvisible() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let first = try await client.availableDriver("TX-1", adminToken: admin)
            let second = try await client.availableDriver("TX-2", x: 3500, y: 3500, adminToken: admin)
            let ana = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            for action in ["offers/\(ride.id)/accept", "offers/\(ride.id)/decline", "rides/\(ride.id)/pickup"] {
                let response = try await client.call(.post, "/v1/driver/\(action)", token: second.token)
                #expect(response.status == .notFound, "other driver \(action): \(response.status)")
            }
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: first.token)
            let dropoff = try await client.call(.post, "/v1/driver/rides/\(ride.id)/dropoff", token: second.token,
                                                json: #"{"x":1,"y":1}"#)
            #expect(dropoff.status == .notFound)
            #expect(try await client.call(.post, "/v1/rides/\(ride.id)/report", token: second.token).status == .notFound)
        }
    }

    @Test func adminRoutesOnlyTouchDrivers() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let ana = try await client.customer("ana@example.com")
            for path in ["/v1/admin/drivers/\(ana.id)/invalidate", "/v1/admin/drivers/1/invalidate", "/v1/admin/drivers/999/invalidate"] {
                #expect(try await client.call(.post, path, token: admin).status == .notFound, "\(path)")
            }
            #expect(try await client.call(.delete, "/v1/admin/drivers/\(ana.id)", token: admin).status == .notFound)
        }
    }

    @Test func invalidatedAndRemovedDriversAreLockedOut() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let first = try await client.availableDriver("TX-1", adminToken: admin)
            let second = try await client.availableDriver("TX-2", adminToken: admin)
            #expect(try await client.call(.post, "/v1/admin/drivers/\(first.id)/invalidate", token: admin).status == .noContent)
            #expect(try await client.call(.get, "/v1/driver", token: first.token).status == .unauthorized)
            let login = try await client.call(.post, "/v1/auth/login", json: #"{"email":"tx-1@taxi.example","password":"driver-password"}"#)
            #expect(login.status == .unauthorized)

            #expect(try await client.call(.delete, "/v1/admin/drivers/\(second.id)", token: admin).status == .noContent)
            #expect(try await client.call(.get, "/v1/driver", token: second.token).status == .unauthorized)
            #expect(try await client.call(.get, "/v1/queue?x=500&y=500").decode(QueueBody.self).length == 1)  // only TX-1 left
        }
    }
}
