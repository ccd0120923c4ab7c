import Instrumentation
import NIOConcurrencyHelpers
import Tracing
@testable import DispatchService

/// The test process's tracer for libraries that use the process-wide one (Hummingbird's `TracingMiddleware`):
/// `InstrumentationSystem` can be bootstrapped only once a process, so this is bootstrapped once and sends
/// spans to the tracer a test routes it to, or to a queue of one span nobody reads.
final class TestProcessTracer: Tracer, Sendable {
    typealias Span = OTLPSpan
    static let shared: TestProcessTracer = {
        let tracer = TestProcessTracer()
        InstrumentationSystem.bootstrap(tracer)
        return tracer
    }()
    private let nowhere = OTLPTracer(queue: SpanQueue(limit: 1, batchSize: 1))
    private let target = NIOLockedValueBox<OTLPTracer?>(nil)

    /// Sends the process's spans to `tracer` while `body` runs.
    func routing<T>(to tracer: OTLPTracer, _ body: () async throws -> T) async rethrows -> T {
        target.withLockedValue { $0 = tracer }
        defer { target.withLockedValue { $0 = nil } }
        return try await body()
    }

    private var current: OTLPTracer { target.withLockedValue { $0 } ?? nowhere }

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        current.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function,
                          file: fileID, line: line)
    }

    func forceFlush() { current.forceFlush() }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext,
                                              using extractor: Extract) where Extract.Carrier == Carrier {
        current.extract(carrier, into: &context, using: extractor)
    }

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier,
                                           using injector: Inject) where Inject.Carrier == Carrier {
        current.inject(context, into: &carrier, using: injector)
    }
}
