import Foundation
import Testing
@testable import DispatchService

/// `OTLPExporter` on its own: when it sends, to a real receiver, with no service around it.
@Suite struct OTLPExporterTests {
    /// Runs an exporter of `queue` to a new receiver, ends spans named `names`, and returns the span names the
    /// receiver got within 5 s (or as soon as it has them all), without a shutdown.
    static func sentWithoutShutdown(_ names: [String], queue: SpanQueue, flushInterval: Duration) async throws -> [String] {
        let receiver = try await OTLPReceiver.start()
        let exporter = OTLPExporter(queue: queue, endpoint: "http://127.0.0.1:\(receiver.port)/", serviceName: "unit",
                                    flushInterval: flushInterval)
        let running = Task { try await exporter.run() }
        let tracer = OTLPTracer(queue: queue)
        for name in names { tracer.startSpan(name).end() }
        let deadline = ContinuousClock.now + .seconds(5)
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
}
