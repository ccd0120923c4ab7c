import Foundation
import Instrumentation
import Testing
import Tracing
@testable import DispatchService

/// `OTLPTracer`: trace and span ids, parents, W3C `traceparent`, the bounded queue, and the OTLP JSON mapping.
@Suite struct OTLPTracerTests {
    @Test func aChildSpanSharesItsParentsTraceAndNamesItsParent() throws {
        let queue = SpanQueue(limit: 10, batchSize: 10)
        let tracer = OTLPTracer(queue: queue)
        let root = tracer.startSpan("root")
        let child = tracer.startSpan("child", context: root.context)
        let other = tracer.startSpan("other", context: .topLevel)
        child.end(); root.end(); other.end()
        let spans = Dictionary(uniqueKeysWithValues: queue.take(upTo: 10).map { ($0.name, $0) })
        let (r, c, o) = (try #require(spans["root"]), try #require(spans["child"]), try #require(spans["other"]))
        #expect(c.identity.hexTraceID == r.identity.hexTraceID && c.parentSpanID == r.identity.spanID)
        #expect(c.identity.spanID != r.identity.spanID)
        #expect(r.parentSpanID == nil && o.parentSpanID == nil && o.identity.hexTraceID != r.identity.hexTraceID)
    }

    @Test func aTraceparentIsReadAndWrittenAsW3CTraceContext() throws {
        let tracer = OTLPTracer(queue: SpanQueue(limit: 1, batchSize: 1))
        var context = InstrumentationContext.topLevel
        let header = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        tracer.extract(["traceparent": header], into: &context, using: DictionaryExtractor())
        let span = tracer.startSpan("server", context: context, ofKind: .server)
        #expect(span.identity.hexTraceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(span.parentSpanID == 0x00f0_67aa_0ba9_02b7)
        var outgoing: [String: String] = [:]
        tracer.inject(span.context, into: &outgoing, using: DictionaryInjector())
        #expect(outgoing["traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-\(span.identity.hexSpanID)-01")
        for bad in ["00-00000000000000000000000000000000-00f067aa0ba902b7-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-4bf92f35-00f067aa0ba902b7-01"] {
            var ignored = InstrumentationContext.topLevel
            tracer.extract(["traceparent": bad], into: &ignored, using: DictionaryExtractor())
            #expect(ignored.spanIdentity == nil, "\(bad) is not a valid traceparent")
        }
    }

    @Test func aFullQueueDropsAndCountsSpansInsteadOfWaiting() throws {
        let metrics = ServiceMetrics()
        let queue = SpanQueue(limit: 3, batchSize: 2, metrics: metrics)
        let tracer = OTLPTracer(queue: queue)
        for index in 0..<10 { tracer.startSpan("span \(index)").end() }  // no exporter drains it: ending must not wait
        #expect(queue.pending == 3 && queue.dropped == 7)
        #expect(queue.take(upTo: 10).map(\.name) == ["span 0", "span 1", "span 2"], "the oldest spans are kept")
        var bytes: [UInt8] = []
        metrics.registry.emit(into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"citysim_spans_dropped_total{reason="queue_full"} 7"#))
        tracer.startSpan("after").end()
        #expect(queue.pending == 1, "a drained queue takes spans again")
    }

    @Test func spansAreEncodedWithOTLPsJSONMapping() throws {
        let queue = SpanQueue(limit: 1, batchSize: 1)
        let span = OTLPTracer(queue: queue).startSpan("commit", ofKind: .client)
        span.attributes["n"] = 42
        span.attributes["ratio"] = 0.5
        span.attributes["ok"] = true
        span.attributes["who"] = "sqlite"
        span.setStatus(SpanStatus(code: .error, message: "disk full"))
        span.recordError(CancellationError())
        span.end()
        let data = try OTLPTraceRequest.encode(serviceName: "svc", spans: queue.take(upTo: 1))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let resource = try #require((json["resourceSpans"] as? [[String: Any]])?.first)
        #expect(((resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])?.first as? NSDictionary
                == ["key": "service.name", "value": ["stringValue": "svc"]])
        let scope = try #require((resource["scopeSpans"] as? [[String: Any]])?.first)
        #expect((scope["scope"] as? [String: Any])?["name"] as? String == "citysim")
        let encoded = try #require((scope["spans"] as? [[String: Any]])?.first)
        #expect(encoded["kind"] as? Int == 3 && encoded["parentSpanId"] == nil)
        #expect(encoded["startTimeUnixNano"] is String && encoded["endTimeUnixNano"] is String)
        #expect(encoded["status"] as? NSDictionary == ["code": 2, "message": "disk full"])
        let attributes = try #require(encoded["attributes"] as? [NSDictionary])
        #expect(attributes == [["key": "n", "value": ["intValue": "42"]], ["key": "ok", "value": ["boolValue": true]],
                               ["key": "ratio", "value": ["doubleValue": 0.5]], ["key": "who", "value": ["stringValue": "sqlite"]]])
        let event = try #require((encoded["events"] as? [[String: Any]])?.first)
        #expect(event["name"] as? String == "exception" && event["timeUnixNano"] is String)
    }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
}
