import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing
import Tracing
@testable import DispatchService

/// An OTLP/HTTP collector in the test process: a Hummingbird server on an ephemeral port that records the
/// content type and body of every `POST /v1/traces`, and the spans those bodies hold.
final class OTLPReceiver: Sendable {
    struct Post: Sendable {
        let contentType: String?
        let body: Data
    }
    let port: Int
    private let posts: NIOLockedValueBox<[Post]>
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, posts: NIOLockedValueBox<[Post]>, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.posts = posts
        self.group = group
        self.running = running
    }

    static func start() async throws -> OTLPReceiver {
        let posts = NIOLockedValueBox<[Post]>([])
        let router = Router()
        router.post("v1/traces") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 16 << 20)
            posts.withLockedValue { $0.append(Post(contentType: request.headers[.contentType], body: Data(buffer: body))) }
            return .ok
        }
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { listening.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "otlp-receiver")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        return OTLPReceiver(port: port, posts: posts, group: group, running: running)
    }

    var received: [Post] { posts.withLockedValue { $0 } }

    /// Every request body decoded, in arrival order.
    func requests() throws -> [OTLPBody] {
        try received.map { try JSONDecoder().decode(OTLPBody.self, from: $0.body) }
    }

    func stop() async throws {
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
