import DispatchCore
import Testing
@testable import DispatchService

/// `GET /v1/admin/state`: every ride's state, counts by state, invariants, the service clock.
@Suite struct AdminStateTests {
    @Test func listsEveryRideWithItsStateAndNoInvariantViolation() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let ana = try await client.customer("ana@example.com")
            let ben = try await client.customer("ben@example.com")
            // No taxi on shift: D7 rejects at once.
            let rejected = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            _ = try await client.availableDriver("TX-1", adminToken: admin)
            let offered = try await client.call(.post, "/v1/rides", token: ben.token, json: rideJSON).decode(RideBody.self)
            let state = try await client.call(.get, "/v1/admin/state", token: admin)
                .decode(AdminStateController.StateBody.self)
            #expect(state.rides.map(\.id) == [rejected.id, offered.id])
            #expect(state.rides.map(\.status) == ["rejected", "offered"])
            #expect(state.counts == ["rejected": 1, "offered": 1])
            #expect(state.invariantViolations.isEmpty)
            #expect(state.now == fixture.clock.now())
            #expect(state.clockRate == 1)
        }
    }

    @Test func ridesArePagedByIdWhileCountsCoverThemAll() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            var ids: [Int] = []
            for name in ["ana", "ben", "cem"] {
                let customer = try await client.customer("\(name)@example.com")
                ids.append(try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self).id)
            }
            let first = try await client.call(.get, "/v1/admin/state?limit=2", token: admin)
                .decode(AdminStateController.StateBody.self)
            #expect(first.rides.map(\.id) == Array(ids[0..<2]) && first.nextAfter == ids[1])
            #expect(first.total == 3 && first.counts == ["rejected": 3])
            let second = try await client.call(.get, "/v1/admin/state?limit=2&after=\(ids[1])", token: admin)
                .decode(AdminStateController.StateBody.self)
            #expect(second.rides.map(\.id) == [ids[2]] && second.nextAfter == nil && second.total == 3)
            let whole = try await client.call(.get, "/v1/admin/state", token: admin).decode(AdminStateController.StateBody.self)
            #expect(whole.rides.map(\.id) == ids && whole.nextAfter == nil)
            let bad = try await client.call(.get, "/v1/admin/state?limit=0", token: admin)
            #expect(bad.status == .badRequest && bad.problem?.field == "limit")
            #expect(try await client.call(.get, "/v1/admin/state?after=x", token: admin).status == .badRequest)
        }
    }
}
