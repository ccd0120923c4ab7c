// The floor of SwiftNIO alone: GET /health/live -> 200 {"status":"live"}, answered in `channelRead`, no async.
import FloorServer
import NIOCore
import NIOHTTP1

final class LiveHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break
        case .end:
            guard let h = head else { return }
            head = nil
            let live = h.method == .GET && h.uri == "/health/live"
            answer(context, to: h, status: live ? .ok : .notFound,
                   body: context.channel.allocator.buffer(string: live ? #"{"status":"live"}"# : #"{"error":"not found"}"#))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) { context.close(promise: nil) }
}

try serveForever(name: "raw-nio", port: portArgument(18420)) { LiveHandler() }
