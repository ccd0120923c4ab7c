import CompressNIO
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing
import Tracing
@testable import DispatchService

/// An OTLP/HTTP collector in the test process: a Hummingbird server on an ephemeral port that records the
/// headers, body and arrival time of every `POST` to its path (`/v1/traces` by default), and the spans those
/// bodies hold. It answers each post with the next of its scripted `answers`, then 200.
final class OTLPReceiver: Sendable {
    struct Post: Sendable {
        let headers: HTTPFields
        let body: Data
        let arrival: ContinuousClock.Instant
        var contentType: String? { headers[.contentType] }
    }
    /// How the receiver answers one post.
    enum Answer: Sendable {
        /// This status, with these headers (e.g. `Retry-After`).
        case status(HTTPResponse.Status, HTTPFields = [:])
        /// 200, but only after this long, or 503 as soon as the receiver stops (a collector that hangs).
        case late(Duration)
    }
    let port: Int
    private let posts: NIOLockedValueBox<[Post]>
    private let stopping: NIOLockedValueBox<Bool>
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, posts: NIOLockedValueBox<[Post]>, stopping: NIOLockedValueBox<Bool>, group: ServiceGroup,
                 running: Task<Void, any Error>) {
        self.port = port
        self.posts = posts
        self.stopping = stopping
        self.group = group
        self.running = running
    }

    static func start(path: String = "v1/traces", answers: [Answer] = []) async throws -> OTLPReceiver {
        let posts = NIOLockedValueBox<[Post]>([])
        let stopping = NIOLockedValueBox(false)
        let router = Router()
        router.post(RouterPath(path)) { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            let index = posts.withLockedValue { posts in
                posts.append(Post(headers: request.headers, body: Data(buffer: body), arrival: .now))
                return posts.count - 1
            }
            switch index < answers.count ? answers[index] : .status(.ok) {
            case .status(let status, let headers):
                return Response(status: status, headers: headers)
            case .late(let delay):
                let deadline = ContinuousClock.now + delay
                while ContinuousClock.now < deadline {
                    if stopping.withLockedValue({ $0 }) { return Response(status: .serviceUnavailable) }
                    try await Task.sleep(for: .milliseconds(20))
                }
                return Response(status: .ok)
            }
        }
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { listening.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "otlp-receiver")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        return OTLPReceiver(port: port, posts: posts, stopping: stopping, group: group, running: running)
    }

    var received: [Post] { posts.withLockedValue { $0 } }

    /// Every request body decoded (gunzipped first when its `Content-Encoding` is gzip), in arrival order.
    func requests() throws -> [OTLPBody] {
        try received.map { post in
            guard post.headers[.contentEncoding] == "gzip" else { return try JSONDecoder().decode(OTLPBody.self, from: post.body) }
            var compressed = ByteBuffer(data: post.body)
            return try JSONDecoder().decode(OTLPBody.self, from: Data(buffer: try compressed.decompress(with: .gzip())))
        }
    }

    /// Waits until `condition` holds for the posts received, at most `limit` (generous: a loaded machine is slow).
    func wait(atMost limit: Duration = .seconds(300), until condition: ([Post]) -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !condition(received) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    func stop() async throws {
        stopping.withLockedValue { $0 = true }
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

/// An OTLP/HTTP JSON export request, decoded with the JSON mapping's types (ids and 64-bit integers as strings).
struct OTLPBody: Decodable {
    struct KeyValue: Decodable {
        let key: String
        let value: Value
    }
    struct Value: Decodable {
        let stringValue: String?
        let intValue: String?
        let doubleValue: Double?
        let boolValue: Bool?
    }
    struct Span: Decodable {
        let traceId: String, spanId: String, parentSpanId: String?
        let name: String
        let kind: Int
        let startTimeUnixNano: String, endTimeUnixNano: String
        let attributes: [KeyValue]
        let status: Status?

        func attribute(_ key: String) -> Value? { attributes.first { $0.key == key }?.value }
        var start: UInt64 { UInt64(startTimeUnixNano) ?? .max }
        var end: UInt64 { UInt64(endTimeUnixNano) ?? 0 }
    }
    struct Status: Decodable {
        let code: Int
        let message: String?
    }
    struct ScopeSpans: Decodable {
        struct Scope: Decodable { let name: String }
        let scope: Scope
        let spans: [Span]
    }
    struct ResourceSpans: Decodable {
        struct Resource: Decodable { let attributes: [KeyValue] }
        let resource: Resource
        let scopeSpans: [ScopeSpans]
    }
    let resourceSpans: [ResourceSpans]

    var spans: [Span] { resourceSpans.flatMap { $0.scopeSpans.flatMap(\.spans) } }
}
