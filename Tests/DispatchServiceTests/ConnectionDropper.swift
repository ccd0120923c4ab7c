import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP server that closes each of its first `drops` connections as soon as a request arrives (the client gets
/// no answer, only the closed connection), and answers a whole HTTP request on any later connection with an empty 200.
final class ConnectionDropper: Sendable {
    let port: Int
    private let channel: any Channel
    private let state: NIOLockedValueBox<State>
    struct State {
        var connections = 0
        var answered = 0
    }

    private init(port: Int, channel: any Channel, state: NIOLockedValueBox<State>) {
        self.port = port
        self.channel = channel
        self.state = state
    }

    static func start(drops: Int) async throws -> ConnectionDropper {
        let state = NIOLockedValueBox(State())
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = state.withLockedValue { $0.connections += 1; return $0.connections }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(drop: number <= drops, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ConnectionDropper(port: channel.localAddress?.port ?? 0, channel: channel, state: state)
    }

    /// Connections accepted, and requests answered with 200.
    var counts: State { state.withLockedValue { $0 } }

    func stop() async throws { try await channel.close() }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let drop: Bool
        let state: NIOLockedValueBox<State>
        var received: [UInt8] = []

        init(drop: Bool, state: NIOLockedValueBox<State>) {
            self.drop = drop
            self.state = state
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if drop {
                context.close(promise: nil)
                return
            }
            received += Array(buffer: unwrapInboundIn(data))
            guard isComplete else { return }
            state.withLockedValue { $0.answered += 1 }
            let answer = "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).whenComplete { _ in channel.close(promise: nil) }
        }

        /// The head and as many body bytes as its `content-length` says have arrived.
        private var isComplete: Bool {
            let separator = Array("\r\n\r\n".utf8)
            guard let end = received.indices.dropLast(3).first(where: { Array(received[$0..<$0 + 4]) == separator }) else {
                return false
            }
            let head = String(decoding: received[..<end], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
            return received.count >= end + 4 + length
        }
    }
}
