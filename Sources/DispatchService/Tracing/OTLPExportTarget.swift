import AsyncHTTPClient
import CompressNIO
import NIOCore

/// Where `OTLPExporter` posts a batch, with which extra headers, and how long one batch may take, resolved from
/// `TracingSettings` by the OpenTelemetry OTLP exporter rules: a traces endpoint is the full URL, used as given;
/// a base endpoint gets `/v1/traces` appended; the traces endpoint wins when both are set; the traces headers
/// win over the general ones, header by header.
///
/// Invariant: `url` is the URL posted to, exactly; `headers` go on every request; a `gzip` body is sent with
/// `Content-Encoding: gzip`; `timeout` > 0 bounds one batch's export, retries included.
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
    /// How the JSON body is compressed.
    public var compression: TracingSettings.Compression
    /// The longest one batch's export may take, retries and their waits included.
    public var timeout: Duration

    public init(url: String, headers: OTLPHeaders = OTLPHeaders(), compression: TracingSettings.Compression = .none,
                timeout: Duration = .milliseconds(TracingSettings.defaultTimeoutMs)) {
        self.url = url
        self.headers = headers
        self.compression = compression
        self.timeout = timeout
    }

    /// The target `settings` name; nil when they name no endpoint (no tracing).
    public init?(settings: TracingSettings) {
        let url: String
        if let traces = settings.otlpTracesEndpoint { url = traces }
        else if let base = settings.otlpEndpoint { url = Self.tracesURL(base: base) }
        else { return nil }
        let headers = (settings.otlpHeaders ?? OTLPHeaders()).overridden(by: settings.otlpTracesHeaders ?? OTLPHeaders())
        self.init(url: url, headers: headers, compression: settings.otlpCompression ?? .none,
                  timeout: .milliseconds(settings.otlpTimeoutMs ?? TracingSettings.defaultTimeoutMs))
    }

    /// `base/v1/traces`, without doubling a trailing slash: the URL of a collector's base endpoint.
    public static func tracesURL(base: String) -> String {
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed + "/v1/traces"
    }

    /// The request posting `body` (OTLP JSON) here: the headers, `Content-Type: application/json`, and the body
    /// gzip-compressed with `Content-Encoding: gzip` when `compression` says so.
    func request(body: ByteBuffer) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for field in headers.fields { request.headers.add(name: field.name, value: field.value) }
        request.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        switch compression {
        case .none:
            request.body = .bytes(body)
        case .gzip:
            var input = body
            request.headers.replaceOrAdd(name: "Content-Encoding", value: "gzip")
            request.body = .bytes(try input.compress(with: .gzip()))
        }
        return request
    }
}
