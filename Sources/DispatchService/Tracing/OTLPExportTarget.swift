/// Where `OTLPExporter` posts a batch, with which extra headers, and how long one batch may take, resolved from
/// `TracingSettings` by the OpenTelemetry OTLP exporter rules: a traces endpoint is the full URL, used as given;
/// a base endpoint gets `/v1/traces` appended; the traces endpoint wins when both are set; the traces headers
/// win over the general ones, header by header.
///
/// Invariant: `url` is the URL posted to, exactly; `headers` go on every request; `timeout` > 0 bounds one
/// batch's export, retries included.
///
/// ```swift
/// let target = OTLPExportTarget(settings: TracingSettings(otlpEndpoint: "http://collector:4318"))
/// // target?.url == "http://collector:4318/v1/traces", target?.timeout == .seconds(10)
/// ```
public struct OTLPExportTarget: Sendable, Equatable {
    /// The URL each batch is posted to.
    public var url: String
    /// Sent with every request (after the general list, the traces list's value where both name a header).
    public var headers: OTLPHeaders
    /// The longest one batch's export may take, retries and their waits included.
    public var timeout: Duration

    public init(url: String, headers: OTLPHeaders = OTLPHeaders(),
                timeout: Duration = .milliseconds(TracingSettings.defaultTimeoutMs)) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }

    /// The target `settings` name; nil when they name no endpoint (no tracing).
    public init?(settings: TracingSettings) {
        let url: String
        if let traces = settings.otlpTracesEndpoint { url = traces }
        else if let base = settings.otlpEndpoint { url = Self.tracesURL(base: base) }
        else { return nil }
        let headers = (settings.otlpHeaders ?? OTLPHeaders()).overridden(by: settings.otlpTracesHeaders ?? OTLPHeaders())
        self.init(url: url, headers: headers,
                  timeout: .milliseconds(settings.otlpTimeoutMs ?? TracingSettings.defaultTimeoutMs))
    }

    /// `base/v1/traces`, without doubling a trailing slash: the URL of a collector's base endpoint.
    public static func tracesURL(base: String) -> String {
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed + "/v1/traces"
    }
}
