import Foundation

/// The `tracing:` block of the service config: where the spans go (OTLP/HTTP JSON) and how they are batched.
/// Without `otlp_endpoint` or `otlp_traces_endpoint` (here, in their `CITYSIM_TRACING_…` variables or in
/// OpenTelemetry's `OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) the service has no tracer
/// and its spans cost a no-op call each.
///
/// ```yaml
/// tracing: { otlp_endpoint: "http://localhost:4318", service_name: citysim, batch_size: 512, flush_interval_ms: 1000, queue_limit: 8192 }
/// tracing: { otlp_traces_endpoint: "https://ingest.example/v1/traces", otlp_headers: "authorization=Bearer%20T",
///            otlp_timeout_ms: 5000, otlp_compression: gzip, sampler: parentbased_traceidratio, sampler_arg: 0.1 }
/// ```
///
/// OpenTelemetry's variables set these keys (`ServiceConfigReader.openTelemetryVariables`); where a general and a
/// traces-specific variable or key exist, the traces-specific one wins (for headers, header by header).
///
/// Invariant (checked by `validate`): each endpoint is an `http` or `https` URL with a host; the service name is
/// not empty; `batch_size`, `flush_interval_ms`, `otlp_timeout_ms` ≥ 1, `queue_limit` ≥ `batch_size`, and
/// `sampler_arg` is within 0...1.
public struct TracingSettings: Codable, Sendable, Equatable {
    /// The collector's base URL; spans are posted to `OTLP_ENDPOINT/v1/traces`. nil (and no traces endpoint) = no tracing.
    public var otlpEndpoint: String?
    /// The full URL spans are posted to, used as given (nothing appended); wins over `otlpEndpoint`.
    public var otlpTracesEndpoint: String?
    /// Extra headers of every export request (`key1=value1,key2=value2`, values %-encoded), e.g. an `authorization`.
    public var otlpHeaders: OTLPHeaders?
    /// Headers of the traces exports only; where both lists name a header, this one's value is sent.
    public var otlpTracesHeaders: OTLPHeaders?
    /// How request bodies are compressed (`OTEL_EXPORTER_OTLP_COMPRESSION`): `gzip` or `none`. Default none.
    public var otlpCompression: Compression?
    /// Milliseconds one batch's export may take, retries included. Default 10,000.
    public var otlpTimeoutMs: Int?
    /// Which traces are recorded and exported, by OpenTelemetry's name (`OTEL_TRACES_SAMPLER`). Default `parentbased_always_on`.
    public var sampler: TraceSampler.Name?
    /// The ratio of `traceidratio` and `parentbased_traceidratio`, 0...1 (`OTEL_TRACES_SAMPLER_ARG`). Default 1.
    public var samplerArg: Double?
    /// The resource's `service.name`. Default `citysim`.
    public var serviceName: String?
    /// Spans per export request. Default 512.
    public var batchSize: Int?
    /// Milliseconds between exports of a batch that is not full. Default 1000.
    public var flushIntervalMs: Int?
    /// The most ended spans waiting for export; more are dropped (and counted). Default 8192.
    public var queueLimit: Int?

    public static let defaultServiceName = "citysim"
    public static let defaultBatchSize = 512
    public static let defaultFlushIntervalMs = 1000
    public static let defaultQueueLimit = 8192
    public static let defaultTimeoutMs = 10_000

    /// The OTLP exporter's body compressions (OpenTelemetry names `gzip` and `none`).
    public enum Compression: String, Codable, Sendable, CaseIterable {
        case none, gzip
    }

    public init(otlpEndpoint: String? = nil, otlpTracesEndpoint: String? = nil, otlpHeaders: OTLPHeaders? = nil,
                otlpTracesHeaders: OTLPHeaders? = nil, otlpCompression: Compression? = nil, otlpTimeoutMs: Int? = nil,
                sampler: TraceSampler.Name? = nil,
                samplerArg: Double? = nil, serviceName: String? = nil, batchSize: Int? = nil, flushIntervalMs: Int? = nil,
                queueLimit: Int? = nil) {
        self.otlpEndpoint = otlpEndpoint
        self.otlpTracesEndpoint = otlpTracesEndpoint
        self.otlpHeaders = otlpHeaders
        self.otlpTracesHeaders = otlpTracesHeaders
        self.otlpCompression = otlpCompression
        self.otlpTimeoutMs = otlpTimeoutMs
        self.sampler = sampler
        self.samplerArg = samplerArg
        self.serviceName = serviceName
        self.batchSize = batchSize
        self.flushIntervalMs = flushIntervalMs
        self.queueLimit = queueLimit
    }

    /// The sampler `sampler` and `sampler_arg` name, defaults filled in.
    public var traceSampler: TraceSampler { TraceSampler(name: sampler ?? .parentBasedAlwaysOn, argument: samplerArg) }

    /// - Throws: `ConfigError` naming the first bad `tracing.` key.
    public func validate() throws {
        func fail(_ key: String, _ why: String) -> ConfigError { ConfigError(key: ["tracing", key], reason: why) }
        for (key, endpoint) in [("otlp_endpoint", otlpEndpoint), ("otlp_traces_endpoint", otlpTracesEndpoint)] {
            guard let endpoint else { continue }
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  !(url.host ?? "").isEmpty else {
                throw fail(key, "expected an http:// or https:// URL such as http://localhost:4318 (got '\(endpoint)')")
            }
        }
        if let timeout = otlpTimeoutMs, timeout < 1 { throw fail("otlp_timeout_ms", "must be at least 1 (got \(timeout))") }
        if let ratio = samplerArg, !(0...1).contains(ratio) {
            throw fail("sampler_arg", "must be a ratio within 0 and 1 (got \(ratio))")
        }
        if let name = serviceName, name.isEmpty { throw fail("service_name", "must not be empty") }
        if let size = batchSize, size < 1 { throw fail("batch_size", "must be at least 1 (got \(size))") }
        if let interval = flushIntervalMs, interval < 1 { throw fail("flush_interval_ms", "must be at least 1 (got \(interval))") }
        if let limit = queueLimit, limit < (batchSize ?? Self.defaultBatchSize) {
            throw fail("queue_limit", "must be at least batch_size (\(batchSize ?? Self.defaultBatchSize); got \(limit))")
        }
    }

    enum CodingKeys: String, CodingKey {
        case otlpEndpoint = "otlp_endpoint", otlpTracesEndpoint = "otlp_traces_endpoint", otlpTimeoutMs = "otlp_timeout_ms"
        case otlpHeaders = "otlp_headers", otlpTracesHeaders = "otlp_traces_headers"
        case sampler, samplerArg = "sampler_arg", otlpCompression = "otlp_compression"
        case serviceName = "service_name", batchSize = "batch_size"
        case flushIntervalMs = "flush_interval_ms", queueLimit = "queue_limit"
    }
}
