import NIOCore
import NIOPosix
import Testing

/// Reads a server-sent event stream over a real socket as it arrives (the testing client only
/// returns whole responses, and an open-ended stream never ends). Plain HTTP/1.1; the chunk-size
/// lines of the chunked encoding stay in the text, which the tests search, not parse.
///
/// ```swift
/// try await EventStreamClient.open(port: port, path: "/v1/driver/events", token: token) { stream in
///     _ = try await stream.read(until: "event: offer")
/// }
/// ```
struct EventStreamClient {
    private var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    /// Everything received so far.
    private(set) var text = ""

    /// Connects, sends `GET path` with the bearer token, runs `body`, then closes the connection.
    /// - Parameter lastEventID: sent as `Last-Event-ID` (a reconnecting client), when given.
    static func open<T: Sendable>(port: Int, path: String, token: String, lastEventID: String? = nil,
                                  _ body: (inout EventStreamClient) async throws -> T) async throws -> T {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "localhost", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: """
                GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\
                \(lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? "")Accept: text/event-stream\r\n\r\n
                """))
            var client = EventStreamClient(inbound: inbound.makeAsyncIterator())
            return try await body(&client)
        }
    }

    /// Reads until the text received contains `marker`; returns all the text so far.
    /// - Throws: when the connection ends first.
    mutating func read(until marker: String) async throws -> String {
        while !text.contains(marker) {
            guard let chunk = try await inbound.next() else {
                throw StreamEnded(text: text)
            }
            text += String(buffer: chunk)
        }
        return text
    }

    /// Reads until `marker` follows `start` (both in the text); returns all the text so far.
    mutating func read(until marker: String, after start: String) async throws -> String {
        while !(text.range(of: start).map { text[$0.upperBound...].contains(marker) } ?? false) {
            guard let chunk = try await inbound.next() else { throw StreamEnded(text: text) }
            text += String(buffer: chunk)
        }
        return text
    }

    struct StreamEnded: Error { var text: String }
}
