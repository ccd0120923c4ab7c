import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
@testable import DispatchService

/// When `RequestMetricsMiddleware` records a request: a body of known length when the handler returns
/// it (left unwrapped, so head and body go out in one write), a streamed body once it has been written.
@Suite struct RequestMetricsMiddlewareTests {
    /// A request context made without a channel.
    struct Context: RequestContext {
        struct Source: RequestContextSource { var logger = Logger(label: "test") }
        var coreContext: CoreRequestContextStorage
        init(source: Source) { coreContext = .init(source: source) }
    }

    /// Collects what a response body writes.
    struct Collector: ResponseBodyWriter {
        var written = ByteBuffer()
        mutating func write(_ buffer: ByteBuffer) async throws { written.writeImmutableBuffer(buffer) }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    static func count(_ metrics: ServiceMetrics) -> Double? {
        MetricsTests.sample(metrics.registry.emitToString(),
                            #"citysim_http_requests_total{route="unmatched",method="GET",status="200"}"#)
    }

    static func respond(_ metrics: ServiceMetrics, with body: ResponseBody) async throws -> Response {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/x"),
                              body: RequestBody(buffer: ByteBuffer()))
        return try await RequestMetricsMiddleware<Context>(metrics: metrics).handle(request, context: Context(source: .init())) { _, _ in
            Response(status: .ok, body: body)
        }
    }

    @Test func aBodyOfKnownLengthIsRecordedWhenTheHandlerReturnsIt() async throws {
        let metrics = ServiceMetrics()
        let response = try await Self.respond(metrics, with: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
        #expect(Self.count(metrics) == 1, "recorded before the body is written: the body was not wrapped")
        try await response.body.write(Collector())
        #expect(Self.count(metrics) == 1, "and only once")
    }

    @Test func aStreamedBodyIsRecordedOnceItHasBeenWritten() async throws {
        let metrics = ServiceMetrics()
        let stream = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "data: 1\n\n"))
            try await writer.finish(nil)
        }
        let response = try await Self.respond(metrics, with: stream)
        #expect(Self.count(metrics) == nil, "not before its body has been written")
        try await response.body.write(Collector())
        #expect(Self.count(metrics) == 1)
    }
}
