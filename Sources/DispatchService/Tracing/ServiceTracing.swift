import Logging
import Tracing

/// The service's tracing when the config names an OTLP endpoint (base or traces): one `OTLPTracer` (the dispatch host's spans,
/// and Hummingbird's request spans once `DispatchServiceApp.bootstrapTracing()` made it the process's tracer)
/// and the `OTLPExporter` that sends its spans, a service of the `ServiceGroup`.
///
/// Invariant: the tracer and the exporter share one `SpanQueue`, bounded by the config's `queue_limit`.
public struct ServiceTracing: Sendable {
    public let tracer: OTLPTracer
    public let exporter: OTLPExporter

    /// nil when `settings` names no endpoint, base or traces (no tracing).
    init?(settings: TracingSettings, metrics: ServiceMetrics, logger: Logger) {
        guard let target = OTLPExportTarget(settings: settings) else { return nil }
        let queue = SpanQueue(limit: settings.queueLimit ?? TracingSettings.defaultQueueLimit,
                              batchSize: settings.batchSize ?? TracingSettings.defaultBatchSize, metrics: metrics)
        tracer = OTLPTracer(queue: queue, sampler: settings.traceSampler)
        exporter = OTLPExporter(
            queue: queue, target: target, serviceName: settings.serviceName ?? TracingSettings.defaultServiceName,
            flushInterval: .milliseconds(settings.flushIntervalMs ?? TracingSettings.defaultFlushIntervalMs),
            logger: logger, metrics: metrics)
    }
}
