import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import DispatchService

/// The service with `tracing` on, end to end: a real server, a real OTLP/HTTP receiver, graceful shutdown.
/// Serialized: the process's tracer (Hummingbird's request spans) is routed to one test's tracer at a time.
@Suite(.serialized) struct OTLPExportTests {
    /// A service whose tracing sends to `endpoint` with a batch that never fills and a timer that never fires
    /// during a test: only the flush at shutdown sends.
    static func tracedService(endpoint: String) async throws -> ServiceFixture {
        try await ServiceFixture {
            $0.tracing = TracingSettings(otlpEndpoint: endpoint, serviceName: "citysim-test", batchSize: 1000,
                                         flushIntervalMs: 600_000, queueLimit: 4096)
        }
    }

    /// Runs the fixture's service group on a free port, calls `body` with the port, then shuts down gracefully.
    static func serve(_ fixture: ServiceFixture, _ body: (Int) async throws -> Void) async throws {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let group = fixture.service.serviceGroup(signals: [], port: 0) { listening.yield($0) }
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        do { try await body(port) } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Signs a customer up and in over HTTP; returns the account id and the headers of their calls.
    static func customer(port: Int) async throws -> (id: Int, headers: HTTPFields) {
        let client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        defer { Task { try? await client.shutdown() } }
        let json: HTTPFields = [.contentType: "application/json"]
        let account = try await client.post("/v1/accounts", headers: json, body: ByteBuffer(
            string: #"{"email":"ana@example.com","password":"customer-password","name":"Ana"}"#))
        let id = try #require(try JSONSerialization.jsonObject(with: Data(buffer: account.body ?? ByteBuffer())) as? [String: Any])["id"]
        let login = try await client.post("/v1/auth/login", headers: json, body: ByteBuffer(
            string: #"{"email":"ana@example.com","password":"customer-password"}"#))
        let session = try JSONSerialization.jsonObject(with: Data(buffer: login.body ?? ByteBuffer())) as? [String: Any]
        let token = try #require(session?["token"] as? String)
        return (try #require(id as? Int), [.authorization: "Bearer \(token)", .contentType: "application/json"])
    }

    /// Books a ride over HTTP; returns the response status.
    static func bookRide(port: Int, headers: HTTPFields) async throws -> HTTPResponse.Status {
        let client = TestClient(host: "127.0.0.1", port: port)
        client.connect()
        defer { Task { try? await client.shutdown() } }
        return try await client.post("/v1/rides", headers: headers, body: ByteBuffer(string: rideJSON)).head.status
    }

    static func isHex(_ text: String?, length: Int) -> Bool {
        guard let text else { return false }
        return text.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test func withoutAnEndpointTheServiceHasNoTracer() async throws {
        let fixture = try await ServiceFixture { $0.tracing = TracingSettings(serviceName: "quiet") }
        #expect(fixture.service.tracing == nil)
    }

    @Test func aBookedRidesSpansReachTheCollectorAsOTLPJSONUnderItsHTTPRequestSpan() async throws {
        let receiver = try await OTLPReceiver.start()
        let fixture = try await Self.tracedService(endpoint: "http://127.0.0.1:\(receiver.port)")
        let tracing = try #require(fixture.service.tracing)
        let remoteTrace = "5a1f0c3e9b7d4e2f8a6c1b3d5e7f9a0b", remoteSpan = "1122334455667788"
        var customerID = 0
        try await TestProcessTracer.shared.routing(to: tracing.tracer) {
            try await Self.serve(fixture) { port in
                let (id, headers) = try await Self.customer(port: port)
                customerID = id
                #expect(try await Self.bookRide(port: port, headers: headers) == .created)
                var traced = headers
                traced[.init("traceparent")!] = "00-\(remoteTrace)-\(remoteSpan)-01"
                #expect(try await Self.bookRide(port: port, headers: traced) == .created)
            }
        }
        try await receiver.stop()

        #expect(!receiver.received.isEmpty && receiver.received.allSatisfy { $0.contentType == "application/json" })
        let requests = try receiver.requests()
        for request in requests {
            let resource = request.resourceSpans.first?.resource.attributes
            #expect(resource?.first { $0.key == "service.name" }?.value.stringValue == "citysim-test")
            #expect(request.resourceSpans.first?.scopeSpans.first?.scope.name == "citysim")
        }
        let spans = requests.flatMap(\.spans)
        for span in spans {
            #expect(Self.isHex(span.traceId, length: 32) && Self.isHex(span.spanId, length: 16), "\(span.name)")
            #expect(span.parentSpanId == nil || Self.isHex(span.parentSpanId, length: 16), "\(span.name)")
            #expect(span.start <= span.end, "\(span.name) ends after it starts")
        }
        let byID = Dictionary(spans.map { ($0.spanId, $0) }, uniquingKeysWith: { first, _ in first })
        let rides = spans.filter { $0.name == "dispatch.requestRide" && $0.attribute("dispatch.customer_id")?.intValue == "\(customerID)" }
        #expect(rides.count == 2)
        for ride in rides {
            let server = try #require(ride.parentSpanId.flatMap { byID[$0] }, "the ride's span has its HTTP request's span as parent")
            #expect(server.kind == 2 && server.traceId == ride.traceId && server.name == "/v1/rides")
            #expect(server.attribute("http.response.status_code")?.intValue == "201")
            #expect(server.start <= ride.start && ride.end <= server.end)
            let commit = try #require(spans.first { $0.name == "store.commit" && $0.parentSpanId == ride.spanId })
            #expect(commit.traceId == ride.traceId && commit.kind == 3)
            #expect(commit.attribute("store.backend")?.stringValue == "memory")
            #expect(Int(commit.attribute("store.batch_size")?.intValue ?? "") ?? 0 >= 1)
            #expect(ride.start <= commit.start && commit.end <= ride.end)
        }
        let continued = try #require(rides.first { $0.traceId == remoteTrace }, "the request's traceparent is continued")
        #expect(byID[continued.parentSpanId ?? ""]?.parentSpanId == remoteSpan)
        #expect(rides.contains { byID[$0.parentSpanId ?? ""]?.parentSpanId == nil }, "without traceparent the request span is a root")
        #expect(tracing.exporter.exportedSpans == spans.count && tracing.exporter.failedSpans == 0)
        var bytes: [UInt8] = []
        fixture.service.metrics.registry.emit(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("citysim_spans_exported_total \(spans.count)\n"))
    }

    @Test func aCollectorThatIsDownFailsNoRequestAndIsCountedAtShutdown() async throws {
        // A port nothing listens on: take a free one from a receiver, then stop it.
        let gone = try await OTLPReceiver.start()
        try await gone.stop()
        let fixture = try await Self.tracedService(endpoint: "http://127.0.0.1:\(gone.port)")
        let tracing = try #require(fixture.service.tracing)
        try await Self.serve(fixture) { port in
            let (_, headers) = try await Self.customer(port: port)
            #expect(try await Self.bookRide(port: port, headers: headers) == .created)
            #expect(try await Self.bookRide(port: port, headers: headers) == .created)
        }
        #expect(tracing.exporter.failedSpans > 0 && tracing.exporter.exportedSpans == 0)
        #expect(tracing.tracer.queue.pending == 0, "shutdown tried every span")
        var bytes: [UInt8] = []
        fixture.service.metrics.registry.emit(into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"citysim_spans_dropped_total{reason="export_failed"} \#(tracing.exporter.failedSpans)"#))
    }

    @Test func probesAndScrapesGetNoSpanWhileOtherRoutesKeepTheirServerSpan() async throws {
        let fixture = try await Self.tracedService(endpoint: "http://127.0.0.1:9")  // the exporter does not run here
        let tracing = try #require(fixture.service.tracing)
        try await TestProcessTracer.shared.routing(to: tracing.tracer) {
            try await fixture.test { (client: any TestClientProtocol) async throws in
                for path in ["/health/live", "/health/ready", "/metrics", "/health", "/v1/queue?x=900&y=400"] {
                    #expect(try await client.call(.get, path).status == .ok, "\(path)")
                }
                #expect(try await client.call(.post, "/metrics").status == .methodNotAllowed)
            }
        }
        let spans = tracing.tracer.queue.take(upTo: .max)
        let paths = spans.filter { $0.kind == .server }.map { span -> String in
            if case .string(let path)? = span.attributes.get("url.path")?.toSpanAttribute() { return path }
            return span.name
        }
        #expect(paths == ["/v1/queue", "/metrics"], "only the probes' and the scrape's GETs go untraced")
    }
}
