import Foundation
import Hummingbird
import NIOCore

/// A `text/event-stream` response (server-sent events) fed by a host subscription.
///
/// Each frame is `event: KIND`, `id: ID` (the event's id in its party's stream, for
/// `Last-Event-ID` resumes; by default the frame's number 1, 2, 3 … within this response) and `data: JSON`
/// (snake_case, sorted keys); a `: keep-alive` comment goes out every `keepAlive` so that
/// proxies keep the connection open and a vanished client is noticed.
///
/// Invariant: the subscription is opened inside the response body and ended with it, however
/// the body ends — after the last frame, on a write error, or when the client disconnects
/// (the inbound side closes and the writer task is cancelled) — so no continuation outlives
/// its client.
///
/// ```swift
/// return EventStream(keepAlive: .seconds(15)).response(for: request) { stream in
///     let events = await host.subscribe(.driver(driver))
///     try await stream.send(events)
/// }
/// ```
struct EventStream: Sendable {
    /// Time between keep-alive comments.
    let keepAlive: Duration

    /// Writes frames to one response; handed to the body of `response(for:_:)`.
    struct Writer {
        fileprivate var writer: any ResponseBodyWriter
        fileprivate let keepAlive: Duration
        private var sent = 0

        fileprivate init(writer: any ResponseBodyWriter, keepAlive: Duration) {
            self.writer = writer
            self.keepAlive = keepAlive
        }

        /// Sends one event frame with `data` encoded as JSON, numbered `id` (by default the
        /// frame's number within this response).
        mutating func send(_ kind: String, _ data: some Encodable, id: String? = nil) async throws {
            sent += 1
            let json = String(decoding: try EventStream.encoder.encode(data), as: UTF8.self)
            try await writer.write(ByteBuffer(string: "event: \(kind)\nid: \(id ?? String(sent))\ndata: \(json)\n\n"))
        }

        /// Sends a comment line (ignored by clients).
        mutating func comment(_ text: String) async throws {
            try await writer.write(ByteBuffer(string: ": \(text)\n\n"))
        }

        /// Sends each event for which `include` holds as it comes, with keep-alive comments in
        /// between, until `isLast` holds for a sent event or the task is cancelled.
        mutating func send(_ events: AsyncStream<ServiceEvent>,
                           only include: @escaping @Sendable (ServiceEvent) -> Bool = { _ in true },
                           until isLast: (ServiceEvent) -> Bool = { _ in false }) async throws {
            enum Tick: Sendable { case event(ServiceEvent), keepAlive }
            let (ticks, sink) = AsyncStream.makeStream(of: Tick.self)
            let keepAlive = keepAlive
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events where include(event) { sink.yield(.event(event)) }
                    sink.finish()
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: keepAlive)
                        sink.yield(.keepAlive)
                    }
                }
                frames: for await tick in ticks {
                    switch tick {
                    case .keepAlive: try await comment("keep-alive")
                    case .event(let event):
                        try await send(event.kind, event, id: event.eventID)
                        if isLast(event) { break frames }
                    }
                }
                group.cancelAll()  // ends the subscription: its iterating task is cancelled
            }
        }

        fileprivate func finish() async throws { try await writer.finish(nil) }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// A 200 `text/event-stream` response whose body runs `body`, cancelled when the client goes.
    func response(for request: Request,
                  _ body: @escaping @Sendable (inout Writer) async throws -> Void) -> Response {
        let keepAlive = keepAlive
        let stream = ResponseBody { writer in
            var frames = Writer(writer: writer, keepAlive: keepAlive)
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in try await body(&frames) }
            } catch is CancellationError {
                return  // the client disconnected: nothing more to write to
            }
            try await frames.finish()
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                        body: stream)
    }
}

extension HTTPFields.Element.Name {
    /// The id of the last event a reconnecting `EventSource` saw (WHATWG HTML, server-sent events).
    static let lastEventID = Self("Last-Event-ID")!
}
