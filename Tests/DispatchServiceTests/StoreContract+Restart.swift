import DispatchCore
import Foundation
import HummingbirdTesting
import Testing
@testable import DispatchService

extension StoreContract {
    /// A new host on a reopened store rebuilds drivers, queues, rides and timers by replaying the log.
    static func restartRebuildsDriversQueuesRidesAndTimers(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let before: HostState
            do {
                let host = try await DispatchHost(store: try await site.open(), clock: clock, makeCore: RestartTests.makeCore)
                try await RestartTests.busyDay(host, clock)
                before = await host.state()
            }
            let restarted = try await DispatchHost(store: try await site.open(), clock: clock, makeCore: RestartTests.makeCore)
            let after = await restarted.state()
            #expect(after == before)
            #expect(after.drivers.count == 4 && after.requests.count == 5 && !after.timers.isEmpty)
            #expect(await restarted.replayRefusals == 0)
            #expect(await restarted.invariantViolations().isEmpty)
            // The ledger came back too: the accepted ride still shows its taxi.
            #expect(await restarted.ride(RequestID(2))?.taxiCode == "TX-2")

            // D4: the pending offer's minute still runs out after the restart.
            clock.advance(by: 61)
            await restarted.fireDueTimers()
            #expect(await restarted.state().requests[RequestID(5)] == .offered(DriverID(4)))
            #expect(await restarted.driver(DriverID(3))?.status == .available(ZoneID(0)))
        }
    }

    /// Accounts, tokens and rides survive a restart of the whole service, seen through the API.
    static func restartKeepsAccountsTokensAndRidesThroughTheAPI(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (token, rideID) = try await ServiceFixture(store: try await site.open(), clock: clock).test { client in
                let admin = try await client.admin()
                _ = try await client.availableDriver("TX-1", adminToken: admin)
                let customer = try await client.customer("ana@example.com")
                let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
                return (customer.token, ride.id)
            }
            try await ServiceFixture(store: try await site.open(), clock: clock).test { client in
                let ride = try await client.call(.get, "/v1/rides/\(rideID)", token: token)
                #expect(ride.status == .ok)
                #expect(try ride.decode(RideBody.self).status == "offered")
                #expect(try await client.call(.get, "/v1/driver", token: try await client.login("tx-1@taxi.example", "driver-password"))
                    .decode(DriverBody.self).offer?.ride == rideID)
            }
        }
    }
}
