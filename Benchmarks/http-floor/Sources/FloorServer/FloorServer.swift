// What the two SwiftNIO servers share: the bootstrap and the answer. Nothing here is async, so a request is
// answered on its channel's event loop from the handler's `channelRead`, as cheaply as NIO allows.
import NIOCore
import NIOHTTP1
import NIOPosix

/// Listens on 127.0.0.1:`port` with one `makeHandler()` per connection after NIO's HTTP/1.1 server pipeline,
/// on one event loop per core, and never returns.
public func serveForever(name: String, port: Int,
                         makeHandler: @escaping @Sendable () -> any ChannelHandler & Sendable) throws -> Never {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
    let bootstrap = ServerBootstrap(group: group)
        .serverChannelOption(ChannelOptions.backlog, value: 1024)
        .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        .childChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(makeHandler()) }
        }
    let channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
    print("\(name) pid \(getpid()) listening on \(channel.localAddress!)")
    try channel.closeFuture.wait()
    fatalError("\(name): the listening channel closed")
}

/// The port from the first argument, else `fallback`.
public func portArgument(_ fallback: Int) -> Int {
    Int(CommandLine.arguments.dropFirst().first ?? "") ?? fallback
}

/// Writes one whole JSON answer to the request `head`: head, body and end, flushed once; closes the
/// connection after it unless the request keeps it alive.
public func answer(_ context: ChannelHandlerContext, to head: HTTPRequestHead, status: HTTPResponseStatus, body: ByteBuffer) {
    var headers = HTTPHeaders()
    headers.add(name: "content-type", value: "application/json")
    headers.add(name: "content-length", value: String(body.readableBytes))
    if !head.isKeepAlive { headers.add(name: "connection", value: "close") }
    let responseHead = HTTPResponseHead(version: head.version, status: status, headers: headers)
    context.write(NIOAny(HTTPServerResponsePart.head(responseHead)), promise: nil)
    context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil)
    if head.isKeepAlive {
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
    } else {
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
