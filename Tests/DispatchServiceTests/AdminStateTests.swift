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
}
