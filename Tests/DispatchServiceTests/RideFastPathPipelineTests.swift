import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import DispatchService

/// Where `RideFastPath` writes a created ride's answer: in Hummingbird's own HTTP/1 pipeline, just below the
/// response encoder, so the bytes skip the HTTP encoders but pass every handler beneath them (TLS, were it there).
@Suite struct RideFastPathPipelineTests {
    /// Records the bytes written through it: stands where a TLS handler would be, first in the pipeline.
    final class Beneath: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        var seen: [String] = []
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            seen.append(String(buffer: unwrapOutboundIn(data)))
            context.write(data, promise: promise)
        }
    }

    @Test func theAnswerIsWrittenBelowTheEncoderAndAboveWhatLiesBeneathIt() async throws {
        let fixture = try await ServiceFixture()
        let app = fixture.service
        let fastPath = RideFastPath(.init(host: app.host, accounts: app.accounts, metrics: app.metrics,
                                          logger: Logger(label: "test"), requestLogLevel: .debug,
                                          serverName: DispatchServiceApp.serverName, maximumBody: 1_024))
        let channel = EmbeddedChannel()
        let beneath = Beneath()
        try channel.pipeline.syncOperations.addHandler(beneath)
        let http = HTTP1Channel(responder: { _, _, _ in },
                                configuration: .init(additionalChannelHandlers: [fastPath]))
        _ = try http.setup(channel: channel, logger: Logger(label: "test")).wait()

        let side = try #require(fastPath.socketSide, "the fast path found the response encoder")
        side.writeAndFlush(NIOAny(ByteBuffer(string: "raw answer")), promise: nil)
        #expect(beneath.seen == ["raw answer"], "the raw answer passes the handlers beneath the encoder")
        #expect(try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) } == "raw answer")
        _ = try? channel.finish()
    }
}
