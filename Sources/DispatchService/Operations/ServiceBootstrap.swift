import Logging
import Metrics
import Prometheus
import Tracing

extension DispatchServiceApp {
    /// Points swift-log at the config's format and level, for the whole process (once, before any logger
    /// is made): `citysim serve` does it; tests log through the default handler.
    public static func bootstrapLogging(_ settings: LogSettings) {
        LoggingSystem.bootstrap { label in settings.makeHandler(label: label) }
    }

    /// Has malloc map blocks of 1 MiB and more on their own, so they return to the system when freed
    /// (`ProcessHeap.mapBlocks(atLeast:)`: checkpoints allocate and free tens of MiB). For the whole
    /// process, once at start: `citysim serve` does it.
    public static func returnLargeBlocksWhenFreed() { ProcessHeap.mapBlocks(atLeast: 1 << 20) }

    /// Points swift-metrics' global `MetricsSystem` at this service's registry (once a process), so that
    /// libraries recording through swift-metrics appear at `GET /metrics` beside the service's own families.
    public func bootstrapMetrics() {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
    }

    /// Makes this service's `OTLPTracer` the process's tracer (`InstrumentationSystem`, once a process), so that
    /// Hummingbird's `TracingMiddleware` records each request's server span into it, with the dispatch host's
    /// spans as its children. Does nothing when the config turns no tracing on.
    public func bootstrapTracing() {
        if let tracing { InstrumentationSystem.bootstrap(tracing.tracer) }
    }
}
