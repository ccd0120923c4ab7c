import Foundation
import HTTPTypes
import Logging
import Testing
@testable import DispatchService

/// `OTLPExporter` on its own: when it sends, to a real receiver, with no service around it.
@Suite struct OTLPExporterTests {
    /// Runs an exporter of `queue` to a new receiver, ends spans named `names`, and returns the span names the
    /// receiver got within 300 s (or as soon as it has them all), without a shutdown. The bound is generous because a
    /// test run that loads both cores can hold the exporter's task back for many seconds.
    static func sentWithoutShutdown(_ names: [String], queue: SpanQueue, flushInterval: Duration) async throws -> [String] {
        let receiver = try await OTLPReceiver.start()
        let exporter = OTLPExporter(queue: queue, endpoint: "http://127.0.0.1:\(receiver.port)/", serviceName: "unit",
                                    flushInterval: flushInterval)
        let running = Task { try await exporter.run() }
        let tracer = OTLPTracer(queue: queue)
        for name in names { tracer.startSpan(name).end() }
        let deadline = ContinuousClock.now + .seconds(300)
        while try receiver.requests().flatMap(\.spans).count < names.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        running.cancel()
        try await running.value
        let received = try receiver.requests().flatMap(\.spans).map(\.name)
        try await receiver.stop()
        return received
    }

    @Test func spansAreSentEveryFlushIntervalWithoutAFullBatch() async throws {
        let sent = try await Self.sentWithoutShutdown(["lonely"], queue: SpanQueue(limit: 100, batchSize: 100),
                                                      flushInterval: .milliseconds(50))
        #expect(sent == ["lonely"])
    }

    @Test func aFullBatchIsSentAtOnce() async throws {
        let sent = try await Self.sentWithoutShutdown(["one", "two"], queue: SpanQueue(limit: 100, batchSize: 2),
                                                      flushInterval: .seconds(600))
        #expect(sent == ["one", "two"])
    }

    /// Runs `exporter`, ends one span a name of `names` on a tracer of its queue and asks for a flush, and waits until
    /// every span is exported or counted as failed (at most `limit`: generous, as the whole suite running on two busy
    /// cores once held a retry back for over 20 s); then stops the exporter.
    static func export(_ names: [String], with exporter: OTLPExporter, atMost limit: Duration = .seconds(300)) async throws {
        let running = Task { try await exporter.run() }
        let tracer = OTLPTracer(queue: exporter.queue)
        for name in names { tracer.startSpan(name).end() }
        tracer.forceFlush()
        let deadline = ContinuousClock.now + limit
        while exporter.exportedSpans + exporter.failedSpans < names.count && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        running.cancel()
        try await running.value
    }

    /// The exporter `environment` configures (with the minimal service config), as the service makes it.
    static func exporter(_ environment: [String: String]) throws -> OTLPExporter {
        let folder = try TemporaryFolder()
        let config = try ServiceConfigReadingTests.load(ServiceConfigReadingTests.minimal, in: folder, environment: environment)
        let settings = try #require(config.tracing)
        return try #require(ServiceTracing(settings: settings, metrics: ServiceMetrics(), logger: Logger(label: "test"))).exporter
    }

    @Test func spansArePostedToTheTracesEndpointAsGivenNotToTheBaseEndpoint() async throws {
        let receiver = try await OTLPReceiver.start(path: "ingest/spans")
        let exporter = try Self.exporter([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)",
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:\(receiver.port)/ingest/spans"])
        try await Self.export(["routed"], with: exporter)
        try await receiver.stop()
        #expect(exporter.exportedSpans == 1 && exporter.failedSpans == 0)
        #expect(try receiver.requests().flatMap(\.spans).map(\.name) == ["routed"])
    }

    @Test func aCollectorThatDoesNotAnswerIsGivenUpOnAfterTheConfiguredTimeout() async throws {
        // The collector answers 200, but only after 5 s: within the default 10 s, not within the 300 ms configured.
        // (No wall-clock bound in the test: the exporter's timeout runs on NIO's event loop, which a busy test
        // run does not hold back, while the receiver's answer can only come later.)
        let receiver = try await OTLPReceiver.start(answers: [.late(.seconds(5))])
        let exporter = try Self.exporter(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)",
                                          "OTEL_EXPORTER_OTLP_TIMEOUT": "300"])
        try await Self.export(["stuck"], with: exporter)
        try await receiver.stop()
        #expect(exporter.failedSpans == 1 && exporter.exportedSpans == 0)
        #expect(receiver.received.count <= 1, "no retry once the batch's 300 ms are spent")
    }

    @Test func theHeadersGoOnEveryExportRequestTheTracesValueWinning() async throws {
        let receiver = try await OTLPReceiver.start()
        let exporter = try Self.exporter([
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:\(receiver.port)", "CITYSIM_TRACING_BATCH_SIZE": "1",
            "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20general,x-tenant=citysim",
            "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=Bearer%20traces"])
        try await Self.export(["one", "two"], with: exporter)
        try await receiver.stop()
        #expect(exporter.exportedSpans == 2 && receiver.received.count == 2, "a batch of one span a request")
        for post in receiver.received {
            #expect(post.headers[values: .authorization] == ["Bearer traces"])
            #expect(post.headers[HTTPField.Name("x-tenant")!] == "citysim" && post.contentType == "application/json")
        }
    }

    /// An exporter to `port`'s `/v1/traces` with fast retries (10 ms backoff, 10 attempts) within 300 s.
    static func retryingExporter(port: Int, metrics: ServiceMetrics) -> OTLPExporter {
        OTLPExporter(queue: SpanQueue(limit: 100, batchSize: 100),
                     target: OTLPExportTarget(url: "http://127.0.0.1:\(port)/v1/traces", timeout: .seconds(300)),
                     serviceName: "unit", retry: ExportRetryPolicy(maxAttempts: 10, initialBackoff: .milliseconds(10),
                                                                   maxBackoff: .milliseconds(40)),
                     metrics: metrics)
    }

    static func scrape(_ metrics: ServiceMetrics) -> String {
        var bytes: [UInt8] = []
        metrics.registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aBatchAnswered503TwiceIsPostedAgainUntilTheCollectorTakesIt() async throws {
        let receiver = try await OTLPReceiver.start(answers: [.status(.serviceUnavailable), .status(.serviceUnavailable)])
        let metrics = ServiceMetrics()
        let exporter = Self.retryingExporter(port: receiver.port, metrics: metrics)
        try await Self.export(["patient"], with: exporter)
        try await receiver.stop()
        #expect(exporter.exportedSpans == 1 && exporter.failedSpans == 0)
        #expect(receiver.received.count == 3 && Set(receiver.received.map(\.body)).count == 1, "the same batch, three times")
        #expect(Self.scrape(metrics).contains(#"citysim_span_export_retries_total{reason="http_503"} 2"#))
    }

    @Test func aBatchRefusedWith400IsNotPostedAgain() async throws {
        let receiver = try await OTLPReceiver.start(answers: [.status(.badRequest)])
        let metrics = ServiceMetrics()
        let exporter = Self.retryingExporter(port: receiver.port, metrics: metrics)
        try await Self.export(["malformed"], with: exporter)
        try await receiver.stop()
        #expect(exporter.failedSpans == 1 && exporter.exportedSpans == 0 && receiver.received.count == 1)
        #expect(!Self.scrape(metrics).contains("citysim_span_export_retries_total{"))
    }

    @Test func aRetryAfterAnswerIsWaitedOutBeforeTheNextAttempt() async throws {
        let receiver = try await OTLPReceiver.start(answers: [.status(.tooManyRequests, [.retryAfter: "1"])])
        let exporter = Self.retryingExporter(port: receiver.port, metrics: ServiceMetrics())
        try await Self.export(["throttled"], with: exporter)
        try await receiver.stop()
        #expect(exporter.exportedSpans == 1 && receiver.received.count == 2)
        let posts = receiver.received
        if posts.count == 2 {
            // A lower bound only: a loaded machine makes the gap longer, never shorter (the backoff alone is ≤ 40 ms).
            #expect(posts[1].arrival - posts[0].arrival >= .seconds(1))
        }
    }

    @Test func aConnectionDroppedWithoutAnAnswerIsRetried() async throws {
        let dropper = try await ConnectionDropper.start(drops: 1)
        let metrics = ServiceMetrics()
        let exporter = Self.retryingExporter(port: dropper.port, metrics: metrics)
        try await Self.export(["dropped once"], with: exporter)
        try await dropper.stop()
        #expect(exporter.exportedSpans == 1 && exporter.failedSpans == 0, "failed: \(exporter.failedSpans)")
        #expect(dropper.counts.connections == 2 && dropper.counts.answered == 1, "\(dropper.counts)")
        #expect(Self.scrape(metrics).contains(#"citysim_span_export_retries_total{reason="connection"} 1"#))
    }

    @Test func withGzipCompressionTheBodyIsGzippedAndSaysSo() async throws {
        let receiver = try await OTLPReceiver.start()
        let endpoint = "http://127.0.0.1:\(receiver.port)"
        let gzip = try Self.exporter(["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip"])
        try await Self.export(["squeezed"], with: gzip)
        let plain = try Self.exporter(["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
                                       "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "none"])
        try await Self.export(["as is"], with: plain)
        try await receiver.stop()
        let posts = receiver.received
        #expect(posts.map { $0.headers[.contentEncoding] } == ["gzip", nil])
        #expect(posts.first?.body.prefix(2) == Data([0x1f, 0x8b]), "gzip's magic number")
        #expect(try receiver.requests().flatMap(\.spans).map(\.name) == ["squeezed", "as is"])
    }
}
