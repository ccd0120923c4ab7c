import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import DispatchService

/// `/health/live`, `/health/ready`, and the graceful shutdown of the service group.
@Suite struct HealthTests {
    @Test func liveAnswersAndReadyFollowsTheStore() async throws {
        let store = FailingLogStore()
        let fixture = try await ServiceFixture(store: store)
        try await fixture.test { client in
            let live = try await client.call(.get, "/health/live")
            #expect(live.status == .ok && String(buffer: live.body) == #"{"status":"live"}"#)
            #expect(try await client.call(.get, "/health/ready").status == .ok)
            store.unreachable.withLock { $0 = true }
            let down = try await client.call(.get, "/health/ready")
            #expect(down.status == .serviceUnavailable && down.problem?.title == "store-unavailable")
            #expect(try await client.call(.get, "/health/live").status == .ok)  // alive, just not ready
            store.unreachable.withLock { $0 = false }
            #expect(try await client.call(.get, "/health/ready").status == .ok)
        }
    }

    @Test func readyAnswersWithinItsTimeoutWhenTheStoreHangs() async throws {
        let store = FailingLogStore()
        let fixture = try await ServiceFixture(store: store)
        store.hanging.withLock { $0 = true }
        // Ends the hang after 20 s, so that a check that waits for the store fails here instead of hanging.
        let release = Task {
            try await Task.sleep(for: .seconds(20))
            store.hanging.withLock { $0 = false }
        }
        let problem = await Readiness(storeTimeout: .milliseconds(100)).problem(of: fixture.host)
        let answeredDuringTheHang = store.hanging.withLock { $0 }
        release.cancel()
        store.hanging.withLock { $0 = false }
        #expect(answeredDuringTheHang)
        #expect(problem?.code == "store-unavailable" && problem?.detail.contains("did not answer") == true)
    }

    @Test func readyTurnsToShuttingDownWhenDrainingBegins() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            #expect(try await client.call(.get, "/health/ready").status == .ok)
            fixture.service.readiness.beginDraining()
            let draining = try await client.call(.get, "/health/ready")
            #expect(draining.status == .serviceUnavailable && draining.problem?.title == "shutting-down")
        }
    }

    /// A ride in flight when shutdown begins is still committed and answered; an open event stream
    /// ends instead of holding the server; the group then stops and the timer loop with it.
    @Test func gracefulShutdownDrainsTheRequestInFlightAndEndsEventStreams() async throws {
        let store = FailingLogStore()
        let fixture = try await ServiceFixture(store: store)
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let group = fixture.service.serviceGroup(signals: [], port: 0) { listening.yield($0) }
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())

        let setup = TestClient(host: "127.0.0.1", port: port)
        setup.connect()
        let account = #"{"email":"ana@example.com","password":"customer-password","name":"Ana"}"#
        #expect(try await setup.post("/v1/accounts", headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: account)).head.status == .created)
        let login = try await setup.post("/v1/auth/login", headers: [.contentType: "application/json"],
                                         body: ByteBuffer(string: #"{"email":"ana@example.com","password":"customer-password"}"#))
        let session = try JSONSerialization.jsonObject(with: Data((login.body ?? ByteBuffer()).readableBytesView))
        let token = try #require((session as? [String: Any])?["token"] as? String)
        let auth: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
        try await setup.shutdown()

        let streamClient = TestClient(host: "127.0.0.1", port: port)
        streamClient.connect()
        let stream = Task { try await streamClient.get("/v1/events", headers: auth) }
        while await fixture.host.subscriberCount() == 0 { try await Task.sleep(for: .milliseconds(10)) }

        // The stream verified the token, so the ride below is answered by `RideFastPath`: the quiesce event must
        // wait for its answer there too.
        store.appendDelay.withLock { $0 = .milliseconds(800) }
        let rideClient = TestClient(host: "127.0.0.1", port: port)
        rideClient.connect()
        let ride = Task { try await rideClient.post("/v1/rides", headers: auth, body: ByteBuffer(string: rideJSON)) }
        while store.appending.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }

        await group.triggerGracefulShutdown()
        let answered = try await ride.value
        #expect(answered.head.status == .created, "the request in flight is answered, not cut off")
        let streamed = try await stream.value
        #expect(streamed.head.status == .ok)  // the stream ended, so its response completed
        try await running.value  // the group stops once drained
        // The ride is durable: in the log, or in the checkpoint the shutdown took after it.
        let restarted = try await DispatchHost(store: store, clock: fixture.clock, makeCore: RestartTests.makeCore)
        #expect(await restarted.ledger.rides.count == 1)
        #expect(fixture.service.readiness.isDraining)
        try? await streamClient.shutdown()
        try? await rideClient.shutdown()
    }
}
