import Instrumentation
import NIOConcurrencyHelpers
import Tracing

/// What an ended span recorded, as the exporter sends it.
///
/// Invariant: `startNanos <= endNanos`; `parentSpanID`, when set, is the span id of a span of the same trace.
public struct FinishedSpan: Sendable {
    public var name: String
    public var kind: SpanKind
    public var identity: SpanIdentity
    public var parentSpanID: UInt64?
    /// Nanoseconds since the Unix epoch.
    public var startNanos: UInt64, endNanos: UInt64
    public var attributes: SpanAttributes
    public var status: SpanStatus?
    public var events: [SpanEvent]
    public var links: [SpanIdentity]
}

/// A span of `OTLPTracer`: records its name, attributes, status, events and links until it ends, then hands
/// itself once to the tracer's `SpanQueue` (which never blocks: it drops when full). A span whose identity is not
/// sampled records nothing and is never enqueued; its `context` still carries its identity to children and callees.
///
/// Invariant: `end` enqueues a sampled span at most once; after it (and throughout, when unsampled) the span records
/// nothing (`isRecording` false).
public final class OTLPSpan: Span, Sendable {
    public let context: InstrumentationContext
    let kind: SpanKind
    let identity: SpanIdentity
    let parentSpanID: UInt64?
    let startNanos: UInt64
    private let queue: SpanQueue
    private struct Recorded {
        var name: String
        var attributes = SpanAttributes()
        var status: SpanStatus?
        var events: [SpanEvent] = []
        var links: [SpanIdentity] = []
        /// Ended, or never recording (an unsampled span).
        var ended = false
    }
    private let recorded: NIOLockedValueBox<Recorded>

    init(name: String, kind: SpanKind, context: InstrumentationContext, identity: SpanIdentity, parentSpanID: UInt64?,
         startNanos: UInt64, queue: SpanQueue) {
        var context = context
        context.spanIdentity = identity
        self.context = context
        self.kind = kind
        self.identity = identity
        self.parentSpanID = parentSpanID
        self.startNanos = startNanos
        self.queue = queue
        recorded = NIOLockedValueBox(Recorded(name: name, ended: !identity.isSampled))
    }

    public var operationName: String {
        get { recorded.withLockedValue { $0.name } }
        set { recorded.withLockedValue { if !$0.ended { $0.name = newValue } } }
    }

    public var attributes: SpanAttributes {
        get { recorded.withLockedValue { $0.attributes } }
        set { recorded.withLockedValue { if !$0.ended { $0.attributes = newValue } } }
    }

    public var isRecording: Bool { recorded.withLockedValue { !$0.ended } }

    public func setStatus(_ status: SpanStatus) {
        recorded.withLockedValue { if !$0.ended { $0.status = status } }
    }

    public func addEvent(_ event: SpanEvent) {
        recorded.withLockedValue { if !$0.ended { $0.events.append(event) } }
    }

    /// An `exception` event with `exception.type` and `exception.message`, as OpenTelemetry names them.
    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes,
                                                    at instant: @autoclosure () -> Instant) {
        var attributes = attributes
        attributes["exception.type"] = "\(type(of: error))"
        attributes["exception.message"] = "\(error)"
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    public func addLink(_ link: SpanLink) {
        guard let linked = link.context.spanIdentity else { return }
        recorded.withLockedValue { if !$0.ended { $0.links.append(linked) } }
    }

    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let endNanos = max(instant().nanosecondsSinceEpoch, startNanos)
        let finished: FinishedSpan? = recorded.withLockedValue { recorded in
            guard !recorded.ended else { return nil }
            recorded.ended = true
            return FinishedSpan(name: recorded.name, kind: kind, identity: identity, parentSpanID: parentSpanID,
                                startNanos: startNanos, endNanos: endNanos, attributes: recorded.attributes,
                                status: recorded.status, events: recorded.events, links: recorded.links)
        }
        if let finished { queue.submit(finished) }
    }
}
