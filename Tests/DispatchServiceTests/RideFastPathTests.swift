import DispatchCore
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing
@testable import DispatchService

/// `RideFastPath`: `POST /v1/rides` answered in front of the router gives the router's answers, in request order.
@Suite struct RideFastPathTests {
    /// The service's own server (`httpServer()`: the fast path unless the config turns it off) on a free port.
    func live<T>(_ fixture: ServiceFixture, router: Router<ServiceRequestContext>? = nil,
                 _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let app = Application(router: router ?? fixture.service.router(), server: fixture.service.httpServer(),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0),
                                                   serverName: DispatchServiceApp.serverName))
        return try await app.test(.live, body)
    }

    /// What a client sees of an answer, apart from the `Date` header.
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var headers: [String: String]
        var body: String
        var description: String { "\(status) \(headers) \(body)" }

        init(status: Int, headers: [String: String], body: String) {
            (self.status, self.headers, self.body) = (status, headers, body)
        }

        init(_ response: TestResponse) {
            status = response.status.code
            headers = Dictionary(response.headers.filter { $0.name != .date }.map { ($0.name.canonicalName, $0.value) },
                                 uniquingKeysWith: { $0 + ", " + $1 })
            body = String(buffer: response.body)
        }
    }

    /// The same requests to two fresh services, one with the fast path and one without: every answer the
    /// same, byte for byte (the clock is manual, so even the times agree), successes and problems alike.
    @Test func everyRideAnswerIsTheRoutersAnswer() async throws {
        func answers(fastPath: Bool) async throws -> [Answer] {
            let fixture = try await ServiceFixture { $0.rideFastPath = fastPath }
            return try await live(fixture) { client in
                let admin = try await client.admin()
                let (_, driver) = try await client.availableDriver("T1", adminToken: admin)
                var customers: [String] = []  // one active ride each (D3): a second would be a 409
                for name in ["ana", "ben", "cy", "di"] {
                    customers.append(try await client.customer("\(name)@example.com").token)
                }
                let customer = customers[0]
                // The first use of `ben`'s token: verified by the router, then cached; the others are cached first.
                for token in customers.dropFirst(2) { _ = try await client.call(.get, "/v1/rides", token: token) }
                let oversized = #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"pad":""#
                    + String(repeating: "x", count: 17_000) + #""}"#
                var seen: [Answer] = []
                for (token, json) in [
                    (customers[1], rideJSON),
                    (customers[2], rideJSON),
                    (customers[3], #"{"origin":{"x":100,"y":100},"destination":{"x":200,"y":3900},"patience_s":120}"#),
                    (customers[1], rideJSON),  // a second active ride (D3)
                    (customer, #"{"origin":{"x":-5,"y":400},"destination":{"x":3000,"y":3000}}"#),
                    (customer, #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":9000}}"#),
                    (customer, #"{"destination":{"x":3000,"y":3000},"origin":{"x":900,"y":400}}"#),  // JSONDecoder's
                    (customer, #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"patience_s":null}"#),
                    (customer, #"{"origin":{"x":900,"y":400}"#),
                    (customer, oversized),
                    (driver, rideJSON),
                    (admin, rideJSON),
                    ("no-such-token", rideJSON),
                ] {
                    seen.append(Answer(try await client.call(.post, "/v1/rides", token: token, json: json)))
                }
                for token in customers { seen.append(Answer(try await client.call(.get, "/v1/rides", token: token))) }
                let metrics = String(buffer: try await client.call(.get, "/metrics").body)
                let counted = metrics.split(separator: "\n").filter {
                    $0.hasPrefix("citysim_http_requests_total") && $0.contains(#"route="/v1/rides""#)
                }
                seen.append(Answer(status: 0, headers: [:], body: counted.sorted().joined(separator: "\n")))
                return seen
            }
        }
        let router = try await answers(fastPath: false)
        let fast = try await answers(fastPath: true)
        #expect(router.map(\.status) == [201, 201, 201, 409, 422, 422, 201, 400, 400, 413, 403, 403, 401, 200, 200, 200, 200, 0])
        #expect(fast.count == router.count)
        for (index, (expected, got)) in zip(router, fast).enumerated() {
            #expect(got == expected, "request \(index)")
        }
        #expect(fast.last?.body.contains(#"{route="/v1/rides",method="POST",status="201"} 4"#) == true,
                "the metrics count the rides: \(fast.last!.body)")
    }

    /// A cached customer's ride is answered before the router sees it: here the router has no ride route at all.
    /// Everything else still reaches the router, and answers leave in request order, the router's slow one included.
    @Test func aCachedCustomersRideIsAnsweredInFrontOfTheRouterAndInRequestOrder() async throws {
        let fixture = try await ServiceFixture()
        let token = try await fixture.test { client in try await client.customer("ana@example.com").token }
        _ = try await fixture.service.accounts.authenticate(token: token)  // now in the verified-token cache
        let bare = Router(context: ServiceRequestContext.self)
        bare.get("slow") { _, _ in
            try await Task.sleep(for: .milliseconds(300))
            return "slow"
        }
        bare.post("/v1/rides") { _, _ in HTTPResponse.Status.accepted }  // the router's ride route, told apart
        try await live(fixture, router: bare) { client in
            let ride = try await client.call(.post, "/v1/rides", token: token, json: rideJSON)
            #expect(ride.status == .created, "\(ride.text)")
            #expect(ride.headers[.server] == "citysim" && ride.headers[.date] != nil)
            #expect(try await client.call(.post, "/v1/rides", token: "not-cached", json: rideJSON).status == .accepted)
            #expect(try await client.call(.post, "/v1/rides?x=1", token: token, json: rideJSON).status == .accepted)

            let request = { (method: String, path: String, last: Bool) in
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(method == "POST" ? rideJSON.utf8.count : 0)\r\n"
                    + (last ? "Connection: close\r\n" : "") + "\r\n" + (method == "POST" ? rideJSON : "")
            }
            // Ride 2 arrives while ride 1 is answered here: held, then answered here too. Ride 3 arrives while the
            // router's slow answer is pending: its answer must come after that one, whoever gives it.
            let pipelined = request("POST", "/v1/rides", false) + request("POST", "/v1/rides", false)
                + request("GET", "/slow", false) + request("POST", "/v1/rides", false) + request("POST", "/v1/rides", true)
            let answers = try await Self.exchange(pipelined, port: client.port!)
            #expect(answers.count == 5, "\(answers)")
            #expect(answers.prefix(2).map(\.status) == [201, 201], "\(answers)")
            #expect(answers.dropFirst(2).first.map { $0.status == 200 && $0.text.hasSuffix("slow") } == true, "\(answers)")
            #expect(answers.dropFirst(3).allSatisfy { [201, 202].contains($0.status) }, "\(answers)")
        }
    }

    /// The connection remembers its token's hash, not its identity: a token revoked between two rides on one
    /// connection is refused on the second.
    @Test func aTokenRevokedBetweenTwoRidesOfAConnectionIsRefusedOnTheSecond() async throws {
        let fixture = try await ServiceFixture()
        let token = try await fixture.test { client in try await client.customer("ana@example.com").token }
        _ = try await fixture.service.accounts.authenticate(token: token)
        try await live(fixture) { client in
            let request = { (method: String, path: String, body: String, last: Bool) in
                "\(method) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + (last ? "Connection: close\r\n" : "") + "\r\n" + body
            }
            let answers = try await Self.exchange(request("POST", "/v1/rides", rideJSON, false)
                + request("DELETE", "/v1/auth/token", "", false) + request("POST", "/v1/rides", rideJSON, true),
                port: client.port!)
            #expect(answers.map(\.status) == [201, 204, 401], "\(answers)")
        }
    }

    /// Each ride request is logged as the router's `LogRequestsMiddleware` logs it: the same level, message and
    /// metadata keys, a request id of its own each time.
    @Test func aRideRequestIsLoggedAsTheRouterLogsIt() async throws {
        func logged(fastPath: Bool) async throws -> [LogRecords.Record] {
            let records = LogRecords()
            let fixture = try await ServiceFixture {
                $0.rideFastPath = fastPath
                $0.log = LogSettings(level: .info, requests: .notice)
            }
            var logger = Logger(label: "test") { _ in records }
            logger.logLevel = .info
            let app = Application(router: fixture.service.router(), server: fixture.service.httpServer(logger: logger),
                                  configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
            try await app.test(.live) { client in
                let (_, token) = try await client.customer("ana@example.com")
                _ = try await client.call(.get, "/v1/rides", token: token)  // the token is now cached
                records.removeAll()
                for _ in 0..<2 { _ = try await client.call(.post, "/v1/rides", token: token, json: rideJSON) }
            }
            return records.all.filter { $0.message == "Request" }
        }
        let router = try await logged(fastPath: false), fast = try await logged(fastPath: true)
        #expect(router.count == 2 && fast.count == 2)
        for (expected, got) in zip(router, fast) {
            #expect(got.level == expected.level && got.level == .notice)
            #expect(got.source == expected.source, "\(got.source) \(expected.source)")
            #expect(got.metadata.filter { $0.key != "hb.request.id" } == expected.metadata.filter { $0.key != "hb.request.id" })
            #expect(Set(got.metadata.keys) == ["hb.request.path", "hb.request.method", "hb.request.id"], "\(got.metadata)")
        }
        #expect(fast.first?.metadata["hb.request.id"] != fast.last?.metadata["hb.request.id"])
    }

    /// `ride_fast_path` (default true) is read from the config or `CITYSIM_RIDE_FAST_PATH`, and only as a boolean.
    @Test func theFastPathIsOnUnlessTheConfigOrItsVariableTurnsItOff() throws {
        let folder = try TemporaryFolder()
        let minimal = ServiceConfigReadingTests.minimal
        #expect(try ServiceConfigReadingTests.load(minimal, in: folder).rideFastPath == nil)
        #expect(try ServiceConfigReadingTests.load(minimal + "\nride_fast_path: false", in: folder).rideFastPath == false)
        let variable = try ServiceConfigReadingTests.load(minimal, in: folder, environment: ["CITYSIM_RIDE_FAST_PATH": "false"])
        #expect(variable.rideFastPath == false)
        let error = try #require(ServiceConfigReadingTests.error(minimal + "\nride_fast_path: sometimes", in: folder))
        #expect(error.description.contains("ride_fast_path") && error.description.contains("true or false"), "\(error)")
    }

    /// Sends `text` on one connection and reads until the server closes it (or 10 s pass): each answer's status and text.
    static func exchange(_ text: String, port: Int) async throws -> [(status: Int, text: String)] {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        var received = ""
        // A server that stops answering fails the test instead of hanging it.
        let deadline = channel.channel.eventLoop.scheduleTask(in: .seconds(10)) { channel.channel.close(promise: nil) }
        defer { deadline.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: text))
            for try await chunk in inbound { received += String(buffer: chunk) }
        }
        return received.components(separatedBy: "HTTP/1.1 ").dropFirst().map { answer in (Int(answer.prefix(3)) ?? 0, answer) }
    }
}

/// A log handler that keeps what it is given; its copies keep their own metadata and share the records.
struct LogRecords: LogHandler {
    struct Record {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]
        var source: String
    }

    private let records = NIOLockedValueBox<[Record]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata.mapValues(\.description)
        for (key, value) in event.metadata ?? [:] { all[key] = value.description }
        records.withLockedValue { $0.append(Record(level: event.level, message: "\(event.message)", metadata: all, source: event.source)) }
    }

    var all: [Record] { records.withLockedValue { $0 } }
    func removeAll() { records.withLockedValue { $0.removeAll() } }
}
