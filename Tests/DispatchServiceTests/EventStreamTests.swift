import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Live updates as server-sent events: order, ownership, ends, keep-alive, and no subscription
/// left behind by a client that went away. The real-socket tests run the server with `.live`.
@Suite(.timeLimit(.minutes(1))) struct EventStreamTests {
    /// One frame of a `text/event-stream` body.
    struct Frame: Equatable { var event: String; var id: String; var data: String }

    /// The frames in a whole (de-chunked) event-stream body; comments are skipped.
    static func frames(_ text: String) -> [Frame] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") where !line.hasPrefix(":") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = String(line[line.index(after: colon)...].dropFirst())
            }
            guard let event = fields["event"], let id = fields["id"], let data = fields["data"] else { return nil }
            return Frame(event: event, id: id, data: data)
        }
    }

    /// Waits (3,000 tries 10 ms apart: at least 30 s, generous for a loaded machine) until the host has `count` open subscriptions.
    static func waitForSubscribers(_ host: DispatchHost, _ count: Int) async throws {
        for _ in 0..<3000 where await host.subscriberCount() != count { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await host.subscriberCount() == count)
    }

    @Test func rideEventsArriveInOrderOverARealSocketAndTheStreamEndsWithTheRide() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            let port = try #require(client.port)

            // A second connection holds the stream while the first drives the ride.
            let listener = TestClient(host: "localhost", port: port)
            listener.connect()
            async let streamed = listener.get("/v1/rides/\(ride.id)/events", headers: [.authorization: "Bearer \(customer.token)"])
            try await Self.waitForSubscribers(fixture.host, 1)
            #expect(try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token).status == .ok)
            fixture.clock.advance(by: 60)
            #expect(try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token).status == .ok)
            fixture.clock.advance(by: 600)
            let dropoff = try await client.call(.post, "/v1/driver/rides/\(ride.id)/dropoff", token: driver.token,
                                                json: #"{"x":3000,"y":3000}"#)
            #expect(dropoff.status == .ok)

            let response = try await streamed  // returns only because the stream ended
            try await listener.shutdown()
            #expect(response.status == .ok && response.headers[.contentType] == "text/event-stream")
            let frames = Self.frames(String(buffer: try #require(response.body)))
            #expect(frames.map(\.event) == ["status", "taxi_assigned", "picked_up", "fare_charged", "ride_completed"])
            let epoch = await fixture.host.replay.epoch
            #expect(frames.map(\.id) == (0...4).map { "\(epoch).\($0)" })  // the customer's stream ids; status: as of 0
            #expect(frames.first?.data.contains(#""status":"offered""#) == true)
            #expect(frames.dropFirst().allSatisfy { $0.data.contains(#""ride":\#(ride.id)"#) })
            #expect(frames[1].data.contains(#""taxi_code":"TX-1""#))
            try await Self.waitForSubscribers(fixture.host, 0)
        }
    }

    @Test func driverGetsItsOfferAndADisconnectEndsTheSubscription() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live) { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let port = try #require(client.port)
            let text = try await EventStreamClient.open(port: port, path: "/v1/driver/events", token: driver.token) { stream in
                _ = try await stream.read(until: ": subscribed")
                #expect(await fixture.host.subscriberCount(.driver(DriverID(driver.id))) == 1)
                try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
                return try await stream.read(until: "\n\n", after: "event: offer")
            }
            #expect(text.contains("event: offer\nid: \(await fixture.host.replay.epoch).1\ndata: {"))
            #expect(text.contains(#""kind":"offer""#))
            try await Self.waitForSubscribers(fixture.host, 0)  // the client went away: nothing leaks
        }
    }

    @Test func anIdleStreamGetsKeepAliveComments() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test(.live, keepAlive: .milliseconds(50)) { client in
            let customer = try await client.customer("ana@example.com")
            let port = try #require(client.port)
            let text = try await EventStreamClient.open(port: port, path: "/v1/events", token: customer.token) { stream in
                try await stream.read(until: ": keep-alive\n\n")
            }
            #expect(text.lowercased().contains("content-type: text/event-stream"))
            try await Self.waitForSubscribers(fixture.host, 0)
        }
    }

    @Test func aRideThatHasEndedGivesItsStatusAndEnds() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            #expect(ride.status == "rejected")  // D7: no taxi at all
            let response = try await client.call(.get, "/v1/rides/\(ride.id)/events", token: customer.token)
            #expect(response.status == .ok)
            let frames = Self.frames(response.text)
            #expect(frames.map(\.event) == ["status"])
            #expect(frames.first?.data.contains(#""status":"rejected""#) == true)
        }
        try await Self.waitForSubscribers(fixture.host, 0)
    }

    @Test func anotherCustomersRideStreamIsNotFound() async throws {
        try await ServiceFixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let bob = try await client.customer("bob@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            let response = try await client.call(.get, "/v1/rides/\(ride.id)/events", token: bob.token)
            #expect(response.status == .notFound && response.problem?.title == "unknown-ride")
            #expect(try await client.call(.get, "/v1/rides/999/events", token: ana.token).status == .notFound)
        }
    }
}
