import Instrumentation
import Tracing

/// A swift-distributed-tracing `Tracer` whose ended spans go to a bounded `SpanQueue`, from which
/// `OTLPExporter` sends them as OTLP/HTTP JSON. Context travels as W3C Trace Context: `extract` reads a
/// `traceparent` header into the context, `inject` writes one.
///
/// Invariant: a span started in a context that carries a span (`InstrumentationContext.spanIdentity`, local or
/// extracted) shares that span's trace id and names it as its parent; any other span starts a new trace
/// with a random trace id. Every span gets a random span id. `sampler` decides which spans are recorded and
/// exported; an unsampled span's context still propagates, with the W3C sampled flag 0.
///
/// ```swift
/// let queue = SpanQueue(limit: 2048, batchSize: 512)
/// let tracer = OTLPTracer(queue: queue)
/// InstrumentationSystem.bootstrap(tracer)   // for libraries' spans (Hummingbird's TracingMiddleware)
/// let exporter = OTLPExporter(queue: queue, endpoint: "http://localhost:4318", serviceName: "citysim")
/// // run `exporter` in the ServiceGroup: it sends every 1 s or full batch, and what is left at shutdown
/// ```
public struct OTLPTracer: Tracer {
    public typealias Span = OTLPSpan
    public let queue: SpanQueue
    /// Which spans are recorded and exported (default `parentbased_always_on`).
    public let sampler: TraceSampler

    public init(queue: SpanQueue, sampler: TraceSampler = .standard) {
        self.queue = queue
        self.sampler = sampler
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        let context = context()
        let parent = context.spanIdentity
        var identity = SpanIdentity(continuing: parent)
        identity.isSampled = sampler.isSampled(traceLow: identity.traceLow, parent: parent)
        return OTLPSpan(name: operationName, kind: kind, context: context, identity: identity,
                        parentSpanID: parent?.spanID, startNanos: instant().nanosecondsSinceEpoch, queue: queue)
    }

    /// Wakes the exporter to send what waits now (it does not wait for the export).
    public func forceFlush() { queue.requestFlush() }

    /// Reads the W3C `traceparent` of an incoming request, so the request's spans continue its trace.
    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext,
                                                     using extractor: Extract) where Extract.Carrier == Carrier {
        guard let header = extractor.extract(key: "traceparent", from: carrier),
              let remote = SpanIdentity(traceparent: header) else { return }
        context.spanIdentity = remote
    }

    /// Writes the context's span as the W3C `traceparent` of an outgoing request.
    public func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier,
                                                  using injector: Inject) where Inject.Carrier == Carrier {
        guard let identity = context.spanIdentity else { return }
        injector.inject(identity.traceparent, forKey: "traceparent", into: &carrier)
    }
}
