import NIOConcurrencyHelpers

/// The ended spans waiting for `OTLPExporter`, bounded: a span that finds the queue full is dropped and
/// counted, so ending a span never waits (the request path is never held up by tracing).
///
/// Invariant: `pending <= limit`; every submitted span is either pending, taken by `take`, or counted in
/// `dropped` — exactly one of the three.
public final class SpanQueue: Sendable {
    /// The most spans held at once.
    public let limit: Int
    /// The exporter is woken as soon as this many spans wait.
    public let batchSize: Int
    private struct State {
        var spans: [FinishedSpan] = []
        var dropped = 0
    }
    private let state = NIOLockedValueBox(State())
    private let metrics: ServiceMetrics?
    /// Wakes the exporter: a batch is full, `requestFlush` was called, or its timer ticked.
    let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - limit: the most spans held at once (≥ 1).
    ///   - batchSize: spans per export request (≥ 1).
    ///   - metrics: where dropped spans are counted too (`citysim_spans_dropped_total`), if anywhere.
    public init(limit: Int, batchSize: Int, metrics: ServiceMetrics? = nil) {
        precondition(limit >= 1 && batchSize >= 1, "a span queue holds at least one span")
        self.limit = limit
        self.batchSize = batchSize
        self.metrics = metrics
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Spans waiting to be exported.
    public var pending: Int { state.withLockedValue { $0.spans.count } }
    /// Spans dropped because the queue was full.
    public var dropped: Int { state.withLockedValue { $0.dropped } }

    /// Queues an ended span, or drops it when `limit` spans wait. Never blocks.
    func submit(_ span: FinishedSpan) {
        let (accepted, batchReady) = state.withLockedValue { state -> (Bool, Bool) in
            guard state.spans.count < limit else {
                state.dropped += 1
                return (false, false)
            }
            state.spans.append(span)
            return (true, state.spans.count == batchSize)
        }
        if !accepted { metrics?.recordSpansDropped(1, reason: .queueFull) }
        if batchReady { wake.yield() }
    }

    /// Removes and returns up to `count` of the oldest waiting spans.
    func take(upTo count: Int) -> [FinishedSpan] {
        state.withLockedValue { state in
            let taken = Array(state.spans.prefix(count))
            state.spans.removeFirst(taken.count)
            return taken
        }
    }

    /// Wakes the exporter to send what waits now.
    func requestFlush() { wake.yield() }

    /// Ends `wakeups`: the exporter sends what is left and stops.
    func finishWakeups() { wake.finish() }
}
