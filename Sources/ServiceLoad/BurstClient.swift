import Foundation
import NIOCore
import NIOPosix

/// One customer of a burst run (`BurstLoad`) on a keep-alive HTTP/1.1 connection of its own, driven on
/// one event loop: it sends `POST /v1/rides` on its schedule (paced, or back to back), and after a share
/// of them `GET /v1/queue`, each request written as one buffer built from bytes encoded up front, and each
/// answer framed by `HTTPResponseReader`. No task, timer or lock per call: the load generator shares the
/// machine with the service it measures, so what it spends per call is taken from the service and added
/// to the latencies it reports.
///
/// It keeps `ServiceAPI`'s rules for a call: timed from the write of the request to the last byte of the
/// answer; a call without an answer (connection refused, reset, timed out after 60 s, an answer that is
/// not HTTP) is status 0, and the client waits 100 ms before its next ride; a lost connection is opened
/// again for the next call.
///
/// Invariant: at most one call in flight; every call is tallied once (in its loop's `Tally`, when it
/// ends at or after `measuredFrom`); every 201 ride is noted in `acknowledged`; all state is touched on
/// `loop` only, and `finished` succeeds once, after `end`, with nothing in flight.
final class BurstClient: @unchecked Sendable {
    /// What every client of a run shares: where to connect, the encoded requests, the schedule's bounds.
    struct Plan: Sendable {
        var host: String
        var port: Int
        /// The `Host` header's value: the host, and the port when the URL names one.
        var hostHeader: String
        /// Per place: the ride request's `Content-Length` header, the blank line and the JSON body.
        var rideTails: [ByteBuffer]
        /// Per place: the queue query's whole request.
        var queries: [ByteBuffer]
        /// Seconds between one client's rides; nil for back to back.
        var interval: Double?
        var clients: Int
        var queryShare: Double
        var measuredFrom: NIODeadline
        var end: NIODeadline
        var acknowledged: AcknowledgedRides
        var lateStarts: PlayCounters
        var offDocument: PlayCounters

        /// The plan for `url`, or nil when it is not a plain `http://` address this client can connect to.
        init?(url: String, places: [(origin: WirePoint, destination: WirePoint)], interval: Double?, clients: Int,
              queryShare: Double, measuredFrom: NIODeadline, end: NIODeadline, acknowledged: AcknowledgedRides,
              lateStarts: PlayCounters, offDocument: PlayCounters) {
            guard let parsed = URLComponents(string: url), parsed.scheme == "http", let host = parsed.host, !host.isEmpty,
                  parsed.path.isEmpty || parsed.path == "/" else { return nil }
            self.host = host
            port = parsed.port ?? 80
            let hostHeader = parsed.port.map { "\(host):\($0)" } ?? host
            rideTails = places.map { place in
                let body = (try? WireCoding.encoder.encode(WireRideRequest(destination: place.destination, origin: place.origin,
                                                                             patienceS: 0))) ?? Data()
                var tail = ByteBuffer(string: "Content-Length: \(body.count)\r\n\r\n")
                tail.writeBytes(body)
                return tail
            }
            queries = places.map { place in
                ByteBuffer(string: "GET /v1/queue?x=\(Int(place.origin.x))&y=\(Int(place.origin.y)) HTTP/1.1\r\n"
                           + "Host: \(hostHeader)\r\n\r\n")
            }
            self.hostHeader = hostHeader
            self.interval = interval
            self.clients = clients
            self.queryShare = queryShare
            self.measuredFrom = measuredFrom
            self.end = end
            self.acknowledged = acknowledged
            self.lateStarts = lateStarts
            self.offDocument = offDocument
        }
    }

    /// The calls measured by the clients of one event loop, touched on that loop only.
    final class Tally: @unchecked Sendable {
        var rides = EndpointStats()
        var queries = EndpointStats()
        var queryCalls = 0
    }

    private enum Call { case ride, query }

    let loop: EventLoop
    private let plan: Plan
    private let tally: Tally
    /// The ride request's lines up to its `Content-Length` (its token is this client's).
    private let ridePrefix: ByteBuffer
    private let finished: EventLoopPromise<Void>
    private var channel: Channel?
    private var connecting = false
    private var reader = HTTPResponseReader()
    private var inFlight: (call: Call, sentAt: NIODeadline)?
    private var next: NIODeadline
    /// The place of the next ride (an index into `plan.rideTails`, modulo its count), the place of the
    /// last ride sent (its queue query asks there), and the share of a queue query owed.
    private var place: Int
    private var lastPlace = 0
    private var queriesOwed = 0.0
    /// Rides answered 201 so far.
    private var created = 0

    /// A client whose schedule starts at its share `index` of one interval (the clients' sends spread evenly).
    init(plan: Plan, index: Int, token: String, loop: EventLoop, tally: Tally) {
        self.plan = plan
        self.loop = loop
        self.tally = tally
        ridePrefix = ByteBuffer(string: "POST /v1/rides HTTP/1.1\r\nHost: \(plan.hostHeader)\r\nAuthorization: Bearer \(token)\r\n"
                                + "Content-Type: application/json\r\n")
        finished = loop.makePromise()
        place = index &* 7919
        let offset = (plan.interval ?? 0) * Double(index) / Double(max(1, plan.clients))
        next = .now() + .nanoseconds(Int64(offset * 1e9))
    }

    /// Starts the client; the future succeeds when its last call has ended after `plan.end`.
    func run() -> EventLoopFuture<Void> {
        loop.execute { self.nextRide() }
        return finished.futureResult
    }

    // MARK: - The schedule

    /// Sends the next ride on the schedule, or finishes once `end` has passed.
    private func nextRide() {
        let now = NIODeadline.now()
        guard now < plan.end else { return finish() }
        guard let interval = plan.interval else { return send(.ride) }
        if now - next > .milliseconds(10) { plan.lateStarts.add("late") }
        let due = next
        next = next + .nanoseconds(Int64(interval * 1e9))
        if due <= now {
            send(.ride)
        } else {
            loop.scheduleTask(deadline: due) { self.send(.ride) }
        }
    }

    private func send(_ call: Call) {
        guard let channel else { return connect(then: call) }
        var request: ByteBuffer
        switch call {
        case .ride:
            lastPlace = place % plan.rideTails.count
            place &+= 1
            let tail = plan.rideTails[lastPlace]
            request = channel.allocator.buffer(capacity: ridePrefix.readableBytes + tail.readableBytes)
            request.writeImmutableBuffer(ridePrefix)
            request.writeImmutableBuffer(tail)
        case .query:
            request = plan.queries[lastPlace]
        }
        inFlight = (call, .now())
        channel.writeAndFlush(request, promise: nil)
    }

    private func connect(then call: Call) {
        guard !connecting else { return }
        connecting = true
        inFlight = (call, .now())
        ClientBootstrap(group: loop)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        IdleStateHandler(readTimeout: .seconds(60)), Connection(client: self),
                    ])
                }
            }
            .connect(host: plan.host, port: plan.port)
            .whenComplete { [self] result in
                connecting = false
                switch result {
                case .success(let channel):
                    self.channel = channel
                    reader = HTTPResponseReader()
                    inFlight = nil
                    send(call)
                case .failure:
                    ended(status: 0, body: nil)
                }
            }
    }

    // MARK: - Answers

    fileprivate func received(_ bytes: inout ByteBuffer, on connection: Channel) {
        guard connection === channel else { return }
        reader.append(&bytes)
        do {
            while let response = try reader.next() {
                if response.closes { drop(connection) }
                ended(status: response.status, body: response.body)
                if channel !== connection { return }
            }
        } catch {
            drop(connection)
            ended(status: 0, body: nil)
        }
    }

    fileprivate func lost(_ connection: Channel) {
        guard connection === channel else { return }
        channel = nil
        if inFlight != nil { ended(status: 0, body: nil) }
    }

    private func drop(_ connection: Channel) {
        channel = nil
        connection.close(promise: nil)
    }

    /// The call in flight has ended with `status` (0: no answer): tally it, note its ride, go on.
    private func ended(status: Int, body: ByteBuffer?) {
        guard let (call, sentAt) = inFlight else { return }
        inFlight = nil
        let now = NIODeadline.now()
        if now >= plan.measuredFrom {
            let micros = UInt64(max(0, (now - sentAt).nanoseconds / 1_000))
            switch call {
            case .ride: tally.rides.record(microseconds: micros, status: status)
            case .query: tally.queries.record(microseconds: micros, status: status); tally.queryCalls += 1
            }
        }
        switch call {
        case .query:
            nextRide()
        case .ride:
            if status == 201 { noteRide(body ?? ByteBuffer()) }
            if status == 0 {
                loop.scheduleTask(in: .milliseconds(100)) { self.nextRide() }  // server down: do not spin
                return
            }
            queriesOwed += plan.queryShare
            if queriesOwed >= 1 {
                queriesOwed -= 1
                send(.query)
            } else {
                nextRide()
            }
        }
    }

    /// One created ride answer in `decodeEvery` (a client's first included) is decoded in full as the
    /// document's `Ride`; the others give their id and status by `RideAnswerScan`, or, when it cannot
    /// read them, by the full decode too. An answer the decode refuses is counted off the document.
    static let decodeEvery = 16

    private func noteRide(_ body: ByteBuffer) {
        defer { created &+= 1 }
        if created % Self.decodeEvery != 0, let (id, status) = RideAnswerScan.idAndStatus(body) {
            plan.acknowledged.note(id, status)
        } else if let ride = APIAnswer(status: 201, body: body).decode(WireRide.self) {
            plan.acknowledged.note(ride.id, ride.status.rawValue)
        } else {
            plan.offDocument.add("POST /v1/rides")
        }
    }

    private func finish() {
        channel?.close(promise: nil)
        channel = nil
        finished.succeed()
    }

    /// The client's handler on its connection: hands the bytes read and the connection's loss to the client.
    private final class Connection: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let client: BurstClient

        init(client: BurstClient) { self.client = client }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            client.received(&bytes, on: context.channel)
        }

        func channelInactive(context: ChannelHandlerContext) {
            client.lost(context.channel)
            context.fireChannelInactive()
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is IdleStateHandler.IdleStateEvent { context.close(promise: nil) }  // no answer in 60 s
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }
    }
}
