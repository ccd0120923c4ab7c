import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// `GET /metrics`: Prometheus text whose families move with the requests, rides, queues, timers,
/// command-log commits and event streams they name.
@Suite struct MetricsTests {
    /// The value of the sample `series` (name and labels exactly as exported), nil when absent.
    static func sample(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// Scrapes until `ready` holds for the text (a streamed response's request is recorded once its
    /// body has been written, a moment after the client has it), at most 200 tries 50 ms apart (a loaded machine is slow).
    static func scrape(_ client: any TestClientProtocol,
                       until ready: (String) -> Bool = { _ in true }) async throws -> String {
        var text = ""
        for _ in 0..<200 {
            let response = try await client.call(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            text = String(buffer: response.body)
            if ready(text) { return text }
            try await Task.sleep(for: .milliseconds(50))
        }
        return text
    }

    @Test func requestsAreCountedByRouteTemplateMethodAndStatusAndTimed() async throws {
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            #expect(try await client.call(.get, "/v1/queue?x=900&y=400").status == .ok)
            #expect(try await client.call(.get, "/v1/queue?x=900&y=400").status == .ok)
            #expect(try await client.call(.get, "/v1/me").status == .unauthorized)
            #expect(try await client.call(.get, "/v1/rides/98765", token: customer.token).status == .notFound)
            #expect(try await client.call(.get, "/no/such/path").status == .notFound)
            let queue = #"citysim_http_requests_total{route="/v1/queue",method="GET",status="200"}"#
            let text = try await Self.scrape(client) { Self.sample($0, queue) == 2 }
            #expect(Self.sample(text, queue) == 2)
            #expect(Self.sample(text, #"citysim_http_requests_total{route="/v1/me",method="GET",status="401"}"#) == 1)
            #expect(Self.sample(text, #"citysim_http_requests_total{route="/v1/rides/{id}",method="GET",status="404"}"#) == 1)
            #expect(Self.sample(text, #"citysim_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 1)
            // The series (name and labels, before each sample's value), not the values: a duration or a byte count
            // may hold the digits 98765 by chance (it did once in CI).
            let series = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
                line.lastIndex(of: "}").map { line[...$0] } ?? line.prefix { $0 != " " }
            }
            #expect(!series.contains { $0.contains("98765") || $0.contains("/no/such/path") }, "raw paths must not become series")
            #expect(Self.sample(text, #"citysim_http_request_duration_seconds_count{route="/v1/queue",method="GET"}"#) == 2)
            #expect(text.contains("# TYPE citysim_http_request_duration_seconds histogram"))
            #expect(text.contains("# HELP citysim_http_requests_total "))
        }
    }

    @Test func ridesQueuesTimersAndCommitsMoveWithTheDispatch() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", x: 500, y: 500, adminToken: admin)
            var text = try await Self.scrape(client)
            #expect(Self.sample(text, #"citysim_zone_queue_length{zone="0"}"#) == 1)
            #expect(Self.sample(text, #"citysim_zone_queue_length{zone="1"}"#) == 0)
            #expect(Self.sample(text, "citysim_available_taxis") == 1)
            #expect(Self.sample(text, "citysim_pending_timers") == 0)
            #expect(Self.sample(text, #"citysim_rides{state="offered"}"#) == 0)
            let commitsBefore = try #require(Self.sample(text, "citysim_command_log_commit_seconds_count"))
            #expect(commitsBefore >= 3)  // addDriver, startShift, setAvailable
            #expect(try #require(Self.sample(text, "citysim_command_log_batch_size_sum")) >= commitsBefore)

            let ana = try await client.customer("ana@example.com")
            #expect(try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).status == .created)
            let ben = try await client.customer("ben@example.com")
            let waiting = #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"patience_s":300}"#
            #expect(try await client.call(.post, "/v1/rides", token: ben.token, json: waiting).status == .created)
            let cem = try await client.customer("cem@example.com")
            #expect(try await client.call(.post, "/v1/rides", token: cem.token, json: rideJSON).status == .created)

            text = try await Self.scrape(client)
            #expect(Self.sample(text, #"citysim_rides{state="offered"}"#) == 1)   // Ana's, to TX-1
            #expect(Self.sample(text, #"citysim_rides{state="pending"}"#) == 1)   // Ben waits (D7 patience)
            #expect(Self.sample(text, #"citysim_rides{state="rejected"}"#) == 1)  // Cem: no taxi, no patience
            #expect(Self.sample(text, "citysim_waiting_customers") == 1)
            #expect(Self.sample(text, #"citysim_zone_queue_length{zone="0"}"#) == 0)
            #expect(Self.sample(text, "citysim_pending_timers") == 2)  // Ana's offer minute, Ben's patience
            #expect(try #require(Self.sample(text, "citysim_command_log_commit_seconds_count")) == commitsBefore + 3)
        }
    }

    @Test func zonesANewMapNoLongerHasLeaveTheExport() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let before = try await Self.scrape(client)
            #expect(Self.sample(before, #"citysim_zone_queue_length{zone="8"}"#) == 0)  // 3 × 3 zones
            let city = #"{"width":4000,"height":4000,"zone_side":2000}"#
            #expect(try await client.call(.put, "/v1/admin/city", token: admin, json: city).status == .ok)
            let after = try await Self.scrape(client)
            #expect(Self.sample(after, #"citysim_zone_queue_length{zone="3"}"#) == 0)   // 2 × 2 zones
            #expect(Self.sample(after, #"citysim_zone_queue_length{zone="4"}"#) == nil)
            #expect(Self.sample(after, #"citysim_zone_queue_length{zone="8"}"#) == nil)
        }
    }

    @Test func eventStreamSubscribersAreCountedUntilTheStreamsEnd() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let customer = await fixture.host.subscribe(.customer(CustomerID(1)))
            let driver = await fixture.host.subscribe(.driver(DriverID(1)))
            let other = await fixture.host.subscribe(.driver(DriverID(2)))
            var text = try await Self.scrape(client)
            #expect(Self.sample(text, #"citysim_sse_subscribers{party="customer"}"#) == 1)
            #expect(Self.sample(text, #"citysim_sse_subscribers{party="driver"}"#) == 2)
            await fixture.host.endSubscriptions()
            for await _ in customer {}  // ended, so this returns
            _ = (driver, other)
            text = try await Self.scrape(client) { Self.sample($0, #"citysim_sse_subscribers{party="driver"}"#) == 0 }
            #expect(Self.sample(text, #"citysim_sse_subscribers{party="customer"}"#) == 0)
            #expect(Self.sample(text, #"citysim_sse_subscribers{party="driver"}"#) == 0)
        }
    }

    @Test func aFailedCommitIsCounted() async throws {
        let store = FailingLogStore()
        let fixture = try await ServiceFixture(store: store)
        try await fixture.test { client in
            let customer = try await client.customer("ana@example.com")
            store.failing.withLock { $0 = true }
            #expect(try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).status == .serviceUnavailable)
            let text = try await Self.scrape(client)
            #expect(Self.sample(text, "citysim_command_log_commit_failures_total") == 1)
        }
    }
}
