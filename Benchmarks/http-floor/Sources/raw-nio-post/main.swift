// raw-nio plus POST /v1/rides: accumulates the ~200-byte JSON body, decodes it with Foundation's JSONDecoder,
// answers 201 with a ~300-byte JSON body encoded by JSONEncoder. No async on the request path.
import FloorServer
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

struct RideRequest: Decodable {
    var riderId: String
    var pickup: Point
    var dropoff: Point
    var productType: String
    var passengers: Int
    var requestedAt: String
    struct Point: Codable { var lat: Double; var lon: Double }
}

struct RideResponse: Encodable {
    var rideId: String
    var riderId: String
    var status: String
    var pickup: RideRequest.Point
    var dropoff: RideRequest.Point
    var productType: String
    var passengers: Int
    var requestedAt: String
    var estimatedFareCents: Int
    var estimatedPickupSeconds: Int
    var surgeMultiplier: Double
}

final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var counter = 0
    private let decoder = JSONDecoder()
    private let encoder = JSONEncoder()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            body = nil
        case .body(var chunk):
            if body == nil { body = chunk } else { body!.writeBuffer(&chunk) }
        case .end:
            guard let h = head else { return }
            head = nil
            var status: HTTPResponseStatus
            var out: ByteBuffer
            if h.method == .GET && h.uri == "/health/live" {
                status = .ok
                out = context.channel.allocator.buffer(string: #"{"status":"live"}"#)
            } else if h.method == .POST && h.uri == "/v1/rides" {
                do {
                    let req = try decoder.decode(RideRequest.self, from: body ?? ByteBuffer())
                    counter += 1
                    let id = "ride-\(counter)-0000000000000000"
                    let res = RideResponse(
                        rideId: id, riderId: req.riderId, status: "requested",
                        pickup: req.pickup, dropoff: req.dropoff, productType: req.productType,
                        passengers: req.passengers, requestedAt: req.requestedAt,
                        estimatedFareCents: 1234, estimatedPickupSeconds: 240, surgeMultiplier: 1.0)
                    status = .created
                    out = try encoder.encodeAsByteBuffer(res, allocator: context.channel.allocator)
                } catch {
                    status = .badRequest
                    out = context.channel.allocator.buffer(string: #"{"error":"bad request"}"#)
                }
            } else if h.method == .POST && h.uri == "/v1/rides-nojson" {
                // Control: same body read, same-size canned response, no JSONDecoder/JSONEncoder.
                status = .created
                out = context.channel.allocator.buffer(string: cannedResponse)
            } else {
                status = .notFound
                out = context.channel.allocator.buffer(string: #"{"error":"not found"}"#)
            }
            body = nil
            answer(context, to: h, status: status, body: out)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "bench" {
    // In-process cost of one decode + one encode (no HTTP), single thread.
    let body = ByteBuffer(string: try String(contentsOfFile: CommandLine.arguments[2], encoding: .utf8))
    let dec = JSONDecoder(), enc = JSONEncoder(), alloc = ByteBufferAllocator()
    let n = 200_000
    var sink = 0
    func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
    var t0 = now()
    for _ in 0..<n { let r = try dec.decode(RideRequest.self, from: body); sink &+= r.passengers }
    let tDec = (now() - t0) / Double(n) * 1e6
    let req = try dec.decode(RideRequest.self, from: body)
    let res = RideResponse(rideId: "ride-1-0000000000000000", riderId: req.riderId, status: "requested",
        pickup: req.pickup, dropoff: req.dropoff, productType: req.productType, passengers: req.passengers,
        requestedAt: req.requestedAt, estimatedFareCents: 1234, estimatedPickupSeconds: 240, surgeMultiplier: 1.0)
    t0 = now()
    for _ in 0..<n { let b = try enc.encodeAsByteBuffer(res, allocator: alloc); sink &+= b.readableBytes }
    let tEnc = (now() - t0) / Double(n) * 1e6
    print(String(format: "decode_us\t%.2f\tencode_us\t%.2f\tsink\t%d", tDec, tEnc, sink))
    exit(0)
}

let cannedResponse = #"{"dropoff":{"lat":37.787994,"lon":-122.407437},"estimatedPickupSeconds":240,"passengers":2,"pickup":{"lat":37.774929,"lon":-122.419416},"surgeMultiplier":1,"requestedAt":"2025-01-15T08:30:00Z","productType":"standard","status":"requested","riderId":"rider-00012345","rideId":"ride-1-0000000000000000","estimatedFareCents":1234}"#

try serveForever(name: "raw-nio-post", port: portArgument(18422)) { Handler() }
