import DispatchCore
import Foundation
import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Synchronization

/// Answers the common case of `POST /v1/rides` on the connection's event loop, in front of Hummingbird's
/// request path, and hands every other request down the pipeline to the router unchanged (issue 15: the
/// router's per-request machinery was half of a ride's server CPU, `Results/service/README.md`).
///
/// The common case is:
/// - the exact path `/v1/rides`, and a bearer token already in the verified-token cache, for a customer;
/// - a body of at most `ServiceRequestContext`'s upload limit that `RideRequestReader` reads.
///
/// Anything else (another route, an unverified token, a body only `JSONDecoder` reads, a body too large) goes
/// to the router, which answers it as it always did. For the common case this handler does what the router's
/// middleware and `RideController.request` do: the request log line, the host's answer as the same 201 body or
/// the same problem document (with its headers), the 5xx error log line and the request metrics.
///
/// Invariants:
/// - Answers leave a connection in the order of its requests. A request is taken here only while no request
///   handed to the router is unanswered; parts that arrive while an answer here is pending are held and
///   replayed after it.
/// - Graceful shutdown: Hummingbird's connection handler, behind this one, closes a connection on the quiesce
///   event once the requests *it* saw are answered. So the event is held while a request is taken here, and
///   passed on once its answer is written; after it, every request goes to the router.
final class RideFastPath: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case idle
        case collecting(HTTPRequest, CustomerID, ByteBuffer)
        case answering
        case forwarding
    }

    /// What the handler needs of the service; one per server, shared by the connections' handlers.
    struct Service: Sendable {
        var host: DispatchHost
        var accounts: AccountService
        var metrics: ServiceMetrics
        var logger: Logger
        var requestLogLevel: Logger.Level
        var serverName: String
        var maximumBody: Int

        /// A request's logger: the service's, with a request id as Hummingbird's request context gives.
        func requestLogger() -> Logger {
            var logger = logger
            logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
            return logger
        }
    }

    private let service: Service
    // Event-loop state: touched only on the channel's event loop.
    private var state = State.idle
    /// Requests handed to the router whose answer's end has not been written yet.
    private var routerOpen = 0
    /// Parts that arrived while an answer here was pending.
    private var held: [HTTPRequestPart] = []
    /// Graceful shutdown has begun: take nothing more here.
    private var quiescing = false
    /// The quiesce event, held until the request taken here is answered or handed over.
    private var heldQuiesce: ChannelShouldQuiesceEvent?
    /// The last bearer token seen on this connection and its hash: a client sends the same token on every
    /// request of its connection, and hashing it is a third of the token check (the check itself, expiry and
    /// revocation, is made for every request).
    private var lastToken: (token: String, hash: String)?
    /// Parts passed on to the router since the last `channelReadComplete`: NIO's async channel, behind this
    /// handler, delivers what it has read only on that event, so held parts replayed later need one of their own.
    private var unflushedReads = false

    /// The context of `SocketSide`, just below the HTTP response encoder: a created ride's answer is written
    /// there as the bytes the encoders would make of it, without going through them (nil when the pipeline has
    /// no such encoder, and after removal; the answer then goes through the encoders).
    private(set) var socketSide: ChannelHandlerContext?

    init(_ service: Service) {
        self.service = service
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Below the encoder, not first in the pipeline: a TLS handler there would be bypassed.
        let pipeline = context.pipeline.syncOperations
        guard let encoder = try? pipeline.handler(type: HTTPResponseEncoder.self) else { return }
        let side = SocketSide()
        guard (try? pipeline.addHandler(side, position: .before(encoder))) != nil else { return }
        socketSide = try? pipeline.context(handler: side)
    }

    func handlerRemoved(context: ChannelHandlerContext) { socketSide = nil }

    func channelInactive(context: ChannelHandlerContext) {
        socketSide = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .answering = state { held.append(part); return }
        take(part, context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        unflushedReads = false
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerOpen -= 1 }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let quiesce = event as? ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiescing = true
        switch state {
        case .collecting, .answering: heldQuiesce = quiesce
        case .idle, .forwarding: context.fireUserInboundEventTriggered(quiesce)
        }
    }

    private func take(_ part: HTTPRequestPart, _ context: ChannelHandlerContext) {
        switch (state, part) {
        case (.idle, .head(let head)):
            if routerOpen == 0, !quiescing, let customer = fastCustomer(head) {
                state = .collecting(head, customer, context.channel.allocator.buffer(capacity: 256))
            } else {
                forward(.head(head), context)
            }
        case (.collecting(let head, let customer, var body), .body(var chunk)):
            guard body.readableBytes + chunk.readableBytes <= service.maximumBody else {
                handOver(head, body, then: .body(chunk), context)
                return
            }
            body.writeBuffer(&chunk)
            state = .collecting(head, customer, body)
        case (.collecting(let head, let customer, let body), .end):
            guard let request = RideRequestReader.read(body) else {
                handOver(head, body, then: .end(nil), context)
                return
            }
            state = .answering
            answer(head, customer, request, context)
        case (.forwarding, _):
            if case .end = part { state = .idle }
            pass(part, context)
        default:
            forward(part, context)
        }
    }

    /// A request for the router: its head starts `.forwarding`.
    private func forward(_ part: HTTPRequestPart, _ context: ChannelHandlerContext) {
        if case .head = part {
            routerOpen += 1
            state = .forwarding
        }
        pass(part, context)
    }

    private func pass(_ part: HTTPRequestPart, _ context: ChannelHandlerContext) {
        unflushedReads = true
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// A request begun here that the router must answer after all: its parts so far, then `next`.
    private func handOver(_ head: HTTPRequest, _ body: ByteBuffer, then next: HTTPRequestPart,
                          _ context: ChannelHandlerContext) {
        forward(.head(head), context)
        if body.readableBytes > 0 { pass(.body(body), context) }
        releaseQuiesce(context)
        take(next, context)
    }

    /// Passes on a held quiesce event: Hummingbird's handler then closes once the router's requests are answered.
    private func releaseQuiesce(_ context: ChannelHandlerContext) {
        guard let quiesce = heldQuiesce else { return }
        heldQuiesce = nil
        context.fireUserInboundEventTriggered(quiesce)
    }

    /// The customer behind a cached bearer token, when `head` is `POST /v1/rides`.
    private func fastCustomer(_ head: HTTPRequest) -> CustomerID? {
        guard head.method == .post, head.path == "/v1/rides",
              let header = head.headerFields[.authorization], header.hasPrefix("Bearer ") else { return nil }
        let token = header.dropFirst(7)
        let hash: String
        if let last = lastToken, last.token == token {
            hash = last.hash
        } else {
            hash = AccountService.sha256(String(token))
            lastToken = (String(token), hash)
        }
        guard let identity = service.accounts.cachedIdentity(tokenHash: hash), identity.role == .customer else { return nil }
        return CustomerID(identity.accountID)
    }

    private func answer(_ head: HTTPRequest, _ customer: CustomerID, _ request: RideController.RideRequest,
                        _ context: ChannelHandlerContext) {
        // The request's logger, as Hummingbird's request context's, made only when the request line is written
        // (at the default levels it is not: a logger with metadata costs an allocation per ride).
        var logger: Logger?
        if service.logger.logLevel <= service.requestLogLevel {
            logger = service.requestLogger()
            logger?.log(level: service.requestLogLevel, "Request",
                        metadata: ["hb.request.path": "/v1/rides", "hb.request.method": "POST"],
                        source: "Hummingbird")  // the router's line, whoever answers
        }
        let closes = head.headerFields[.connection] == "close"  // as Hummingbird: the connection's last request
        let loop = context.eventLoop, bound = NIOLoopBound(context, eventLoop: loop)
        let started = ContinuousClock.now
        // Through the host's inbox, not a task per ride: the host takes every ride waiting there in one turn.
        service.host.submitRide(customer: customer, from: request.origin.position, to: request.destination.position,
                                patience: request.patienceS ?? 0) { [logger] result in
            let answer = result.mapError { RideController.naming($0, request.origin, request.destination) }
            loop.execute { self.finish(answer, started, logger, closes: closes, bound.value) }
        }
    }

    /// Writes the answer (as `RideController.request` and `ProblemMiddleware` would), then takes the held parts.
    private func finish(_ result: Result<RideSnapshot, any Error>, _ started: ContinuousClock.Instant,
                        _ logger: Logger?, closes: Bool, _ context: ChannelHandlerContext) {
        let status: HTTPResponse.Status, body: ByteBuffer
        var fields = HTTPFields()
        let allocator = context.channel.allocator
        switch result.flatMap({ ride in Result { try Self.json(of: ride, allocator) } }) {
        case .success(let json) where socketSide != nil:
            socketSide!.writeAndFlush(NIOAny(created(json, allocator)), promise: nil)
            service.metrics.recordRequest(route: "/v1/rides", method: "POST", status: 201,
                                          duration: ContinuousClock.now - started)
            next(closes: closes, context)
            return
        case .success(let json):
            (status, body) = (.created, json)
            fields[.contentType] = RideBody.contentType
        case .failure(let error):
            let problem = Problem(from: error)
            if problem.status.code >= 500 { (logger ?? service.requestLogger()).error("POST /v1/rides: \(error)") }
            (status, body) = (problem.status, context.channel.allocator.buffer(bytes: (try? problem.json) ?? Data("{}".utf8)))
            fields = problem.headers
            fields[.contentType] = Problem.contentType
        }
        fields[.contentLength] = String(body.readableBytes)
        fields[.date] = HTTPDateHeader.shared.text()
        fields[.server] = service.serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        service.metrics.recordRequest(route: "/v1/rides", method: "POST", status: status.code,
                                      duration: ContinuousClock.now - started)
        next(closes: closes, context)
    }

    /// The ride's answer body (`RideBody.json()`'s bytes).
    private static func json(of ride: RideSnapshot, _ allocator: ByteBufferAllocator) throws -> ByteBuffer {
        var body = allocator.buffer(capacity: 256)
        try RideBody(ride).write(into: &body)
        return body
    }

    /// A 201 with the ride's JSON as `HTTPResponseEncoder` writes it from the head `finish` would make: the same
    /// status line and the same fields in the same order.
    private func created(_ json: ByteBuffer, _ allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: 160 + json.readableBytes + service.serverName.utf8.count)
        buffer.writeStaticString("HTTP/1.1 201 Created\r\nContent-Type: ")
        buffer.writeString(RideBody.contentType)
        buffer.writeStaticString("\r\nContent-Length: ")
        buffer.writeString(String(json.readableBytes))
        buffer.writeStaticString("\r\nDate: ")
        buffer.writeString(HTTPDateHeader.shared.text())
        buffer.writeStaticString("\r\nServer: ")
        buffer.writeString(service.serverName)
        buffer.writeStaticString("\r\n\r\n")
        buffer.writeImmutableBuffer(json)
        return buffer
    }

    /// After an answer: the connection closes if the request asked, or the held parts are taken.
    private func next(closes: Bool, _ context: ChannelHandlerContext) {
        state = .idle
        defer {
            if unflushedReads {
                unflushedReads = false
                context.fireChannelReadComplete()
            }
        }
        if closes {
            held.removeAll()
            context.close(promise: nil)
            return
        }
        while !held.isEmpty {
            if case .answering = state { return }  // a held request taken here: its answer goes on
            take(held.removeFirst(), context)
        }
        releaseQuiesce(context)  // held only while quiescing, when no request is taken here any more
    }
}

/// The `Date` header's text (RFC 9110's IMF-fixdate), formatted once a second for the whole process (Foundation's
/// formatter costs microseconds; one per connection and second showed in the profile at 500 connections).
final class HTTPDateHeader: Sendable {
    static let shared = HTTPDateHeader()
    private let last = Mutex((second: -1, text: ""))
    private static let format: DateFormatter = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format
    }()

    func text(now: Date = Date()) -> String {
        let current = Int(now.timeIntervalSince1970)
        return last.withLock { last in  // formatted under the lock: one formatter, one thread at a time
            if last.second != current {
                last = (current, Self.format.string(from: Date(timeIntervalSince1970: Double(current))))
            }
            return last.text
        }
    }
}

/// A handler that does nothing, put just below a connection's HTTP response encoder so that `RideFastPath` has a
/// context whose writes skip the HTTP encoders and nothing else.
final class SocketSide: ChannelOutboundHandler, RemovableChannelHandler, Sendable {
    typealias OutboundIn = IOData
}
