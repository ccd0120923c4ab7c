import DispatchCore
import Foundation
import Hummingbird

/// The operator's live map for administrators: taxis by state, waiting customers, zone queue
/// lengths and the last hour's headline figures, once or as a stream.
///
/// `GET /v1/admin/live` → `{"version","now","taxis":[{"driver","taxi_code","status","ride","x","y"}],
/// "waiting":[{"ride","status","x","y","requested_at"}],"queue_lengths":[…],"last_hour":{…}}`;
/// `GET /v1/admin/events` — server-sent events: a `live` event with that body at once and then
/// whenever the state changed (checked every `interval`), a `: keep-alive` comment otherwise.
///
/// Invariant: each `live` frame's `id` is the command log's sequence number of its view, so a
/// client that reconnects with `Last-Event-ID` equal to the current sequence gets no repeated
/// view, and one that missed changes gets the current view first (a view is complete, so
/// nothing between the two is lost to the map).
struct OperatorController {
    let host: DispatchHost
    /// How often an open stream looks for a change.
    let interval: Duration
    let keepAlive: Duration

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("live", use: live)
        routes.get("events", use: events)
        return routes
    }

    @Sendable func live(_ request: Request, context: ServiceRequestContext) async throws -> LiveBody {
        _ = try context.require(.admin)
        return LiveBody(await host.liveView())
    }

    @Sendable func events(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        _ = try context.require(.admin)
        let resumeFrom = request.lastEventID.flatMap { Int64($0) }
        let host = host, interval = interval, keepAlive = keepAlive
        return EventStream(keepAlive: keepAlive).response(for: request) { frames in
            var sent = resumeFrom
            var quiet = Duration.zero
            while !Task.isCancelled {
                let view = await host.liveView()
                if view.version != sent {
                    try await frames.send("live", LiveBody(view), id: String(view.version))
                    sent = view.version
                    quiet = .zero
                } else if quiet >= keepAlive {
                    try await frames.comment("keep-alive")
                    quiet = .zero
                }
                try await Task.sleep(for: interval)
                quiet += interval
            }
        }
    }
}

/// `LiveView` on the wire (snake_case): positions as `x`, `y`, states by their API names.
struct LiveBody: ResponseEncodable, Decodable, Sendable {
    struct Taxi: Codable, Sendable {
        var driver: Int
        var taxiCode: String
        /// unavailable, available, offered, to_pickup, on_ride.
        var status: String
        var zone: Int?
        var ride: Int?
        var x: Double
        var y: Double
    }
    struct Waiting: Codable, Sendable {
        var ride: Int
        /// pending, offered, accepted.
        var status: String
        var x: Double
        var y: Double
        var requestedAt: Date
    }
    struct Hour: Codable, Sendable {
        var requests: Int
        var served: Int
        var pickups: Int
        var p90WaitSeconds: Double?
    }

    var version: Int64
    var now: Date
    var taxis: [Taxi]
    var waiting: [Waiting]
    var queueLengths: [Int]
    var lastHour: Hour

    init(_ view: LiveView) {
        version = view.version
        now = Date(timeIntervalSince1970: view.now)
        taxis = view.taxis.map { taxi in
            let driver = DriverBody(DriverSnapshot(id: taxi.driver, taxiCode: taxi.taxiCode, status: taxi.status,
                                                   position: taxi.position, offer: nil))
            return Taxi(driver: taxi.driver.rawValue, taxiCode: taxi.taxiCode, status: driver.status, zone: driver.zone,
                        ride: driver.ride, x: taxi.position.x, y: taxi.position.y)
        }
        waiting = view.waiting.map {
            Waiting(ride: $0.ride.rawValue, status: RideBody.name(of: $0.status), x: $0.origin.x, y: $0.origin.y,
                    requestedAt: Date(timeIntervalSince1970: $0.requestedAt))
        }
        queueLengths = view.queueLengths
        lastHour = Hour(requests: view.lastHour.requests, served: view.lastHour.served,
                        pickups: view.lastHour.pickups, p90WaitSeconds: view.lastHour.p90WaitSeconds)
    }
}
