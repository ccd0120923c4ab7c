import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One answer of the service: the HTTP status (0 when no answer came) and the body.
public struct APIAnswer: Sendable {
    public var status: Int
    public var body: ByteBuffer?

    /// The body decoded as the OpenAPI document's type (`WireCoding`), or nil.
    public func decode<T: Decodable>(_ type: T.Type) -> T? {
        guard let body else { return nil }
        return try? WireCoding.decoder.decode(T.self, from: Data(body.readableBytesView))
    }
}

/// The service's HTTP API as the load generator calls it: keep-alive HTTP/1.1
/// connections (as many per host as the concurrency), every call timed and recorded
/// under its route template.
///
/// Invariant: every `call` is recorded exactly once in `recorder`, whatever its
/// outcome; a call never throws (a transport failure is status 0).
///
/// ```swift
/// let api = ServiceAPI(baseURL: "http://127.0.0.1:8080", connections: 500, recorder: LatencyRecorder())
/// let answer = await api.call(.POST, "/v1/rides", route: "/v1/rides", token: token, body: ride)
/// try await api.shutdown()
/// ```
public final class ServiceAPI: Sendable {
    public let baseURL: String
    public let recorder: LatencyRecorder
    let client: HTTPClient
    /// - Parameter connections: the per-host connection limit (raise it to the concurrency).
    public init(baseURL: String, connections: Int, recorder: LatencyRecorder) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.recorder = recorder
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(120),
                                             concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, connections))
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        configuration.httpVersion = .http1Only
        configuration.decompression = .disabled
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends one request and records it as `"METHOD route"`.
    /// - Parameters:
    ///   - path: the concrete path, e.g. `/v1/rides/17`.
    ///   - route: the route template it is recorded under, e.g. `/v1/rides/{id}`.
    public func call(_ method: HTTPMethod, _ path: String, route: String? = nil, token: String? = nil,
                     body: (some Encodable & Sendable)? = nil as String?) async -> APIAnswer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body, let data = try? WireCoding.encoder.encode(body) {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: data))
        }
        let started = ContinuousClock.now
        var answer = APIAnswer(status: 0, body: nil)
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            answer.body = try await response.body.collect(upTo: 64 << 20)
            answer.status = Int(response.status.code)
        } catch {
            answer.status = 0
        }
        let elapsed = ContinuousClock.now - started
        let micros = UInt64(max(0, elapsed.components.seconds)) * 1_000_000
            + UInt64(max(0, elapsed.components.attoseconds / 1_000_000_000_000))
        recorder.record("\(method.rawValue) \(route ?? path)", microseconds: micros, status: answer.status)
        return answer
    }

    public func shutdown() async throws { try await client.shutdown() }
}
