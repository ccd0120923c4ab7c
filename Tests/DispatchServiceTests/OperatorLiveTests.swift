import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// The operator's live map: taxis by state, waiting customers, zone queue lengths, the last
/// hour's figures; administrators only; and its event stream's resume by version.
@Suite(.timeLimit(.minutes(1))) struct OperatorLiveTests {
    @Test func theLiveViewShowsTaxisByStateWaitingCustomersAndQueues() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", x: 500, y: 500, adminToken: admin)
            _ = try await client.availableDriver("TX-2", x: 600, y: 600, adminToken: admin)
            _ = try await client.availableDriver("TX-3", x: 3500, y: 3500, adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            let live = try await client.call(.get, "/v1/admin/live", token: admin).decode(LiveBody.self)
            #expect(live.taxis.map(\.taxiCode).sorted() == ["TX-1", "TX-2", "TX-3"])
            let offered = try #require(live.taxis.first { $0.status == "offered" })
            #expect(offered.taxiCode == "TX-1" && offered.ride == ride.id)  // D3: the head of zone 0's queue
            #expect(live.taxis.first { $0.taxiCode == "TX-2" }?.status == "available")
            #expect(live.waiting.map(\.ride) == [ride.id] && live.waiting.first?.x == 900)
            #expect(live.queueLengths.count == 9)
            #expect(live.queueLengths[0] == 1 && live.queueLengths[8] == 1 && live.queueLengths.reduce(0, +) == 2)
            #expect(live.lastHour.requests == 1 && live.lastHour.served == 0 && live.lastHour.p90WaitSeconds == nil)
        }
    }

    @Test func theLastHourCountsServedRidesAndTheP90Wait() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            fixture.clock.advance(by: 150)  // within D9's maximum allowed delay (1.5 × 72 s + 120 s)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token)
            fixture.clock.advance(by: 600)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/dropoff", token: driver.token, json: #"{"x":3000,"y":3000}"#)
            var live = try await client.call(.get, "/v1/admin/live", token: admin).decode(LiveBody.self)
            #expect(live.lastHour.requests == 1 && live.lastHour.served == 1 && live.lastHour.pickups == 1)
            #expect(live.lastHour.p90WaitSeconds == 150)
            #expect(live.waiting.isEmpty)
            fixture.clock.advance(by: 3600)  // an hour later the ride is out of the window
            let later = try await client.admin()  // the fixture's tokens last an hour
            live = try await client.call(.get, "/v1/admin/live", token: later).decode(LiveBody.self)
            #expect(live.lastHour.requests == 0 && live.lastHour.served == 0 && live.lastHour.p90WaitSeconds == nil)
        }
    }

    @Test func theP90IsTheNearestRank() {
        #expect(DispatchHost.percentile(90, of: []) == nil)
        #expect(DispatchHost.percentile(90, of: [5]) == 5)
        #expect(DispatchHost.percentile(90, of: (1...10).map(Double.init).reversed()) == 9)
        #expect(DispatchHost.percentile(90, of: (1...20).map(Double.init)) == 18)
    }

    @Test func onlyAdministratorsSeeTheLiveMap() async throws {
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            #expect(try await client.call(.get, "/v1/admin/live").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/admin/live", token: customer.token).status == .forbidden)
            #expect(try await client.call(.get, "/v1/admin/events", token: customer.token).status == .forbidden)
        }
    }

    @Test func theStreamSendsAViewAtOnceAndAgainAfterAChangeNumberedByVersion() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let port = try #require(client.port)
            let before = await fixture.host.liveView().version
            let text = try await EventStreamClient.open(port: port, path: "/v1/admin/events", token: admin) { stream in
                _ = try await stream.read(until: "id: \(before)\n")
                _ = try await client.availableDriver("TX-1", adminToken: admin)
                let after = await fixture.host.liveView().version
                return try await stream.read(until: "\n\n", after: "id: \(after)\n")
            }
            #expect(text.contains("event: live\nid: \(before)\n"))
            #expect(text.contains(#""taxi_code":"TX-1""#))
        }
    }

    @Test func aResumeAtTheCurrentVersionRepeatsNothingAndAnOlderOneGetsTheView() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live, keepAlive: .milliseconds(600)) { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", adminToken: admin)
            let port = try #require(client.port)
            let version = await fixture.host.liveView().version
            let current = try await EventStreamClient.open(port: port, path: "/v1/admin/events", token: admin,
                                                           lastEventID: String(version)) { stream in
                try await stream.read(until: ": keep-alive")
            }
            #expect(!current.contains("event: live"))
            let older = try await EventStreamClient.open(port: port, path: "/v1/admin/events", token: admin,
                                                         lastEventID: String(version - 1)) { stream in
                try await stream.read(until: "\n\n", after: "event: live")
            }
            #expect(older.contains("event: live\nid: \(version)\n"))
        }
    }
}
