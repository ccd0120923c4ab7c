import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// `Last-Event-ID` resume of the customer, ride and driver streams: the missed events and only
/// those, or a fresh start when they are no longer kept.
@Suite(.timeLimit(.minutes(1))) struct EventResumeTests {
    @Test func theReplayKeepsTheLastEventsOfTrackedPartiesOnly() {
        var replay = EventReplay(epoch: "e")
        let ana = Party.customer(CustomerID(1)), bob = Party.customer(CustomerID(2))
        #expect(replay.track(ana) == "e.0")
        for n in 1...(EventReplay.capacity + 5) {
            var event = ServiceEvent("offer", RequestID(n))
            replay.record(&event, for: ana)
            #expect(event.eventID == "e.\(n)")
            var other = ServiceEvent("offer", RequestID(n))
            replay.record(&other, for: bob)
            #expect(other.eventID == nil)  // never subscribed: nothing kept, no id
        }
        let latest = EventReplay.capacity + 5
        #expect(replay.missed(by: ana, after: "e.\(latest)") == [])
        #expect(replay.missed(by: ana, after: "e.\(latest - 2)")?.map(\.ride) == [latest - 1, latest])
        #expect(replay.missed(by: ana, after: "e.5")?.count == EventReplay.capacity)  // 6… all kept
        #expect(replay.missed(by: ana, after: "e.4") == nil)  // event 5 is gone
        #expect(replay.missed(by: ana, after: "x.\(latest)") == nil)  // another instance's id
        #expect(replay.missed(by: ana, after: "e.\(latest + 1)") == nil)  // from the future
        #expect(replay.missed(by: ana, after: "garbage") == nil)
        #expect(replay.missed(by: bob, after: "e.0") == nil)
    }

    @Test func aReconnectingDriverGetsTheOfferItMissed() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let port = try #require(client.port)
            let epoch = await fixture.host.replay.epoch
            // The first connection sees nothing yet and goes away.
            _ = try await EventStreamClient.open(port: port, path: "/v1/driver/events", token: driver.token) { stream in
                try await stream.read(until: ": subscribed")
            }
            try await EventStreamTests.waitForSubscribers(fixture.host, 0)
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            // While disconnected the offer came; the reconnect with the last id seen gets it.
            let text = try await EventStreamClient.open(port: port, path: "/v1/driver/events", token: driver.token,
                                                        lastEventID: "\(epoch).0") { stream in
                try await stream.read(until: "\n\n", after: "event: offer")
            }
            #expect(text.contains("event: offer\nid: \(epoch).1\n"))
            #expect(text.contains(#""ride":\#(ride.id)"#))
            #expect(!text.contains("event: resync"))
        }
    }

    @Test func anIdThatCannotBeResumedGetsAResync() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let port = try #require(client.port)
            let text = try await EventStreamClient.open(port: port, path: "/v1/driver/events", token: driver.token,
                                                        lastEventID: "before-a-restart.7") { stream in
                try await stream.read(until: "\n\n", after: "event: resync")
            }
            #expect(text.contains("event: resync\nid: \(await fixture.host.replay.epoch).0\n"))
        }
    }

    @Test func aResumedRideStreamSendsOnlyTheMissedEventsOfThatRide() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            let port = try #require(client.port)
            let epoch = await fixture.host.replay.epoch
            let first = try await EventStreamClient.open(port: port, path: "/v1/rides/\(ride.id)/events",
                                                         token: customer.token) { stream in
                try await stream.read(until: "\n\n", after: "event: status")
            }
            #expect(first.contains("event: status\nid: \(epoch).0\n"))
            try await EventStreamTests.waitForSubscribers(fixture.host, 0)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token)
            let resumed = try await EventStreamClient.open(port: port, path: "/v1/rides/\(ride.id)/events",
                                                           token: customer.token, lastEventID: "\(epoch).1") { stream in
                try await stream.read(until: "\n\n", after: "event: picked_up")
            }
            #expect(!resumed.contains("event: status"))          // a resume is not a fresh start
            #expect(!resumed.contains("event: taxi_assigned"))   // event 1, already seen
            #expect(resumed.contains("event: picked_up\nid: \(epoch).2\n"))
        }
    }
}
