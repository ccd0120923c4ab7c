import DispatchCore
import Foundation
import Logging
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// PROTOTYPE, for measurement (issue 15, `Results/service/README.md`): answers the happy path of
/// `POST /v1/rides` on the connection's event loop, in front of Hummingbird's request path, and hands every
/// other request down the pipeline to the router unchanged.
///
/// The happy path is:
/// - a bearer token already in the verified-token cache, for a customer;
/// - a body `RideRequestReader` reads.
///
/// The host's answer is then written here: the ride as 201, or the same problem the router would give.
///
/// Invariant: answers leave a connection in the order of its requests. A request is taken here only while no
/// request handed to the router is unanswered; parts that arrive while an answer here is pending are held and
/// replayed after it.
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

    private let host: DispatchHost
    private let accounts: AccountService
    private let metrics: ServiceMetrics
    private let serverName: String
    private let maximumBody = 1 << 16
    private var state = State.idle
    /// Requests handed to the router whose answer's end has not been written yet.
    private var routerOpen = 0
    /// Parts that arrived while an answer here was pending.
    private var held: [HTTPRequestPart] = []
    /// The `Date` header's text and the second it names, formatted once a second.
    private var dateSecond = -1, dateText = ""
    private static let dateFormat: DateFormatter = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "GMT")
        format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return format
    }()

    init(host: DispatchHost, accounts: AccountService, metrics: ServiceMetrics, serverName: String) {
        self.host = host
        self.accounts = accounts
        self.metrics = metrics
        self.serverName = serverName
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .answering = state { held.append(part); return }
        take(part, context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerOpen -= 1 }
        context.write(data, promise: promise)
    }

    private func take(_ part: HTTPRequestPart, _ context: ChannelHandlerContext) {
        switch (state, part) {
        case (.idle, .head(let head)):
            if routerOpen == 0, let customer = fastCustomer(head) {
                state = .collecting(head, customer, context.channel.allocator.buffer(capacity: 256))
            } else {
                forward(.head(head), context)
            }
        case (.collecting(let head, let customer, var body), .body(var chunk)):
            guard body.readableBytes + chunk.readableBytes <= maximumBody else {
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
            context.fireChannelRead(wrapInboundOut(part))
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
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// A request begun here that the router must answer after all: its parts so far, then `next`.
    private func handOver(_ head: HTTPRequest, _ body: ByteBuffer, then next: HTTPRequestPart,
                          _ context: ChannelHandlerContext) {
        forward(.head(head), context)
        if body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.body(body))) }
        take(next, context)
    }

    private func httpDate() -> String {
        let now = Date().timeIntervalSince1970, second = Int(now)
        if second != dateSecond {
            dateSecond = second
            dateText = Self.dateFormat.string(from: Date(timeIntervalSince1970: Double(second)))
        }
        return dateText
    }

    /// The customer behind a cached bearer token, when `head` is `POST /v1/rides`.
    private func fastCustomer(_ head: HTTPRequest) -> CustomerID? {
        guard head.method == .post, head.path == "/v1/rides",
              let header = head.headerFields[.authorization], header.hasPrefix("Bearer "),
              let identity = accounts.cachedIdentity(token: String(header.dropFirst(7))),
              identity.role == .customer else { return nil }
        return CustomerID(identity.accountID)
    }

    private func answer(_ head: HTTPRequest, _ customer: CustomerID, _ request: RideController.RideRequest,
                        _ context: ChannelHandlerContext) {
        let loop = context.eventLoop, bound = NIOLoopBound(context, eventLoop: loop)
        let host = host, started = ContinuousClock.now
        let origin = request.origin, destination = request.destination, patience = request.patienceS ?? 0
        Task {
            let result: Result<RideSnapshot, any Error>
            do {
                result = .success(try await RideController.naming(origin, destination) {
                    try await host.requestRide(customer: customer, from: origin.position, to: destination.position,
                                               patience: patience)
                })
            } catch {
                result = .failure(error)
            }
            loop.execute { self.finish(head, result, started, bound.value) }
        }
    }

    private func finish(_ head: HTTPRequest, _ result: Result<RideSnapshot, any Error>,
                        _ started: ContinuousClock.Instant, _ context: ChannelHandlerContext) {
        let status: HTTPResponse.Status, text: String, type: String
        switch result.flatMap({ ride in Result { try RideBody(ride).json() } }) {
        case .success(let json):
            (status, text, type) = (.created, json, "application/json; charset=utf-8")
        case .failure(let error):
            let problem = Problem(from: error)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let json = (try? encoder.encode(problem.document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
            (status, text, type) = (problem.status, json, "application/problem+json")
        }
        let body = context.channel.allocator.buffer(string: text)
        var fields = HTTPFields()
        fields[.contentType] = type
        fields[.contentLength] = String(body.readableBytes)
        fields[.date] = httpDate()
        fields[.server] = serverName
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        metrics.recordRequest(route: "/v1/rides", method: "POST", status: status.code,
                              duration: ContinuousClock.now - started)
        state = .idle
        while !held.isEmpty {
            if case .answering = state { return }
            take(held.removeFirst(), context)
        }
    }
}
