import Instrumentation
import Testing
import Tracing
@testable import DispatchService

/// `TraceSampler` and the sampling of `OTLPTracer`: which spans are exported, and what propagates when one is not.
@Suite struct TraceSamplerTests {
    static func parent(sampled: Bool) -> SpanIdentity? {
        SpanIdentity(traceHigh: 1, traceLow: 2, spanID: 3, isSampled: sampled)
    }

    @Test func traceIDRatioSamplesTheTraceIdsWhoseLowerEightBytesAreBelowRatioTimesTwoToThe64() {
        let half = TraceSampler.traceIDRatio(0.5), quarter = TraceSampler.traceIDRatio(0.25)
        #expect(half.isSampled(traceLow: 0x7fff_ffff_ffff_ffff, parent: nil))
        #expect(!half.isSampled(traceLow: 0x8000_0000_0000_0000, parent: nil))
        #expect(quarter.isSampled(traceLow: 0x3fff_ffff_ffff_ffff, parent: nil))
        #expect(!quarter.isSampled(traceLow: 0x4000_0000_0000_0000, parent: nil))
        #expect(!TraceSampler.traceIDRatio(0).isSampled(traceLow: 0, parent: nil))
        #expect(TraceSampler.traceIDRatio(1).isSampled(traceLow: .max, parent: nil))
        #expect(TraceSampler.traceIDRatio(0.5).isSampled(traceLow: 1, parent: Self.parent(sampled: false)),
                "the ratio ignores the parent's flag")
    }

    @Test func parentBasedSamplersFollowTheParentAndAskTheirRootOnlyForRoots() {
        let on = TraceSampler.parentBased(root: .alwaysOn), off = TraceSampler.parentBased(root: .alwaysOff)
        #expect(off.isSampled(traceLow: 0, parent: Self.parent(sampled: true)))
        #expect(!on.isSampled(traceLow: 0, parent: Self.parent(sampled: false)))
        #expect(on.isSampled(traceLow: 0, parent: nil) && !off.isSampled(traceLow: 0, parent: nil))
        let ratio = TraceSampler.parentBased(root: .traceIDRatio(0.5))
        #expect(ratio.isSampled(traceLow: 1, parent: nil) && !ratio.isSampled(traceLow: .max, parent: nil))
    }

    @Test func eachOpenTelemetrySamplerNameMeansItsSampler() {
        let samplers = TraceSampler.Name.allCases.map { TraceSampler(name: $0, argument: 0.3) }
        #expect(samplers == [.alwaysOn, .alwaysOff, .traceIDRatio(0.3), .parentBased(root: .alwaysOn),
                             .parentBased(root: .alwaysOff), .parentBased(root: .traceIDRatio(0.3))])
        #expect(TraceSampler(name: .traceIDRatio, argument: nil) == .traceIDRatio(1), "the ratio defaults to 1")
        #expect(TracingSettings().traceSampler == .parentBased(root: .alwaysOn), "parentbased_always_on by default")
    }

    @Test func theTracerExportsExactlyTheRootsItsRatioSamples() {
        let queue = SpanQueue(limit: 1000, batchSize: 1000)
        let tracer = OTLPTracer(queue: queue, sampler: .traceIDRatio(0.5))
        var expected: [String] = []
        for index in 0..<400 {
            let span = tracer.startSpan("root \(index)")
            if span.identity.traceLow < 1 << 63 { expected.append("root \(index)") }
            span.end()
        }
        #expect(queue.take(upTo: 1000).map(\.name) == expected)
        #expect((100..<300).contains(expected.count), "about half of 400 random trace ids")
    }

    @Test func anUnsampledSpanIsNotExportedButItsContextStillPropagatesWithFlag00() throws {
        let queue = SpanQueue(limit: 10, batchSize: 10)
        let tracer = OTLPTracer(queue: queue, sampler: .alwaysOff)
        let root = tracer.startSpan("root")
        root.attributes["ignored"] = 1
        let child = tracer.startSpan("child", context: root.context)
        #expect(!root.isRecording && child.identity.hexTraceID == root.identity.hexTraceID)
        #expect(child.parentSpanID == root.identity.spanID && !child.identity.isSampled)
        var outgoing: [String: String] = [:]
        tracer.inject(child.context, into: &outgoing, using: DictionaryInjector())
        #expect(outgoing["traceparent"] == "00-\(root.identity.hexTraceID)-\(child.identity.hexSpanID)-00")
        child.end(); root.end()
        #expect(queue.pending == 0)
    }

    @Test func aRemoteParentsSampledFlagDecidesUnderTheDefaultSampler() throws {
        let queue = SpanQueue(limit: 10, batchSize: 10)
        let tracer = OTLPTracer(queue: queue)
        for (flags, exported) in [("00", false), ("01", true)] {
            var context = InstrumentationContext.topLevel
            tracer.extract(["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-\(flags)"], into: &context,
                           using: DictionaryExtractor())
            let server = tracer.startSpan("server \(flags)", context: context, ofKind: .server)
            var outgoing: [String: String] = [:]
            tracer.inject(server.context, into: &outgoing, using: DictionaryInjector())
            #expect(outgoing["traceparent"] == "00-4bf92f3577b34da6a3ce929d0e0e4736-\(server.identity.hexSpanID)-\(flags)")
            server.end()
            #expect(queue.take(upTo: 10).map(\.name) == (exported ? ["server 01"] : []))
        }
    }
}
