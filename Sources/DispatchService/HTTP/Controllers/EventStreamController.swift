import DispatchCore
import Hummingbird

/// Live updates as server-sent events (`text/event-stream`), per customer, per ride and per driver.
///
/// `GET /v1/rides/{id}/events` (the ride's customer; anyone else gets 404): a `status` event
/// with the ride as `GET /v1/rides/{id}` shows it, then each event of that ride as it happens,
/// ending after the event that ends the ride (`ride_completed`, `no_taxi_available`, `expired`,
/// `cancelled`) — at once when the ride had already ended.
/// `GET /v1/events` (a customer: all their rides) and `GET /v1/driver/events` (a driver: offers,
/// withdrawals, revocations, fares, completions) stay open, with a `: keep-alive` comment every
/// `keepAlive`.
///
/// Each frame's `id` is the event's id in the party's stream (`EventReplay`); a client that
/// reconnects with `Last-Event-ID` gets the events it missed (a ride's stream: only those, without
/// the `status` snapshot), or, when they are no longer kept, the snapshot again (ride) or a
/// `resync` event (open-ended streams).
///
/// Invariant: the subscription is opened before the snapshot is read, so no event falls between
/// the two (one may be both in the snapshot and the stream), and it ends with the response.
struct EventStreamController {
    let host: DispatchHost
    let stream: EventStream

    init(host: DispatchHost, keepAlive: Duration) {
        self.host = host
        stream = EventStream(keepAlive: keepAlive)
    }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("rides/{id}/events", use: ride)
        routes.get("events", use: customer)
        routes.get("driver/events", use: driver)
        return routes
    }

    @Sendable func ride(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let customer = CustomerID(try context.require(.customer).accountID)
        let id = RequestID(try context.pathID())
        // A ride never changes hands, so checking ownership before subscribing is safe.
        guard let ride = try await host.storedRide(id), ride.customer == customer else { throw DispatchError.unknownRequest(id) }
        let host = host, resumeAfter = request.lastEventID
        return stream.response(for: request) { frames in
            let (events, latest, missed) = await host.subscribe(.customer(customer), resumingAfter: resumeAfter)
            if let missed {
                // A resume: exactly what the client missed of this ride, no snapshot to contradict it.
                for event in missed where event.ride == id.rawValue {
                    try await frames.send(event.kind, event, id: event.eventID)
                    if event.endsRide { return }
                }
            } else {
                let snapshot = await host.ride(id) ?? ride
                try await frames.send("status", RideBody(snapshot), id: latest)
                guard !snapshot.status.isTerminal else { return }
                if snapshot.taxiCode != nil, let at = await host.taxiPosition(for: id) {
                    var taxiAt = ServiceEvent("taxi_position", id, taxiCode: snapshot.taxiCode)
                    taxiAt.x = at.x
                    taxiAt.y = at.y
                    try await frames.send(taxiAt.kind, taxiAt, id: latest)
                }
            }
            try await frames.send(events, only: { $0.ride == id.rawValue }, until: { $0.endsRide })
        }
    }

    @Sendable func customer(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let party = Party.customer(CustomerID(try context.require(.customer).accountID))
        return openEnded(party, request)
    }

    @Sendable func driver(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let party = Party.driver(DriverID(try context.require(.driver).accountID))
        return openEnded(party, request)
    }

    /// A stream that stays open. On a resume it first sends the missed events, or, when they
    /// are no longer kept, a `resync` event telling the client to read its state again.
    private func openEnded(_ party: Party, _ request: Request) -> Response {
        let host = host, resumeAfter = request.lastEventID
        return stream.response(for: request) { frames in
            let (events, latest, missed) = await host.subscribe(party, resumingAfter: resumeAfter)
            try await frames.comment("subscribed")
            if let missed {
                for event in missed { try await frames.send(event.kind, event, id: event.eventID) }
            } else if resumeAfter != nil {
                try await frames.send("resync", Resync(), id: latest)
            }
            try await frames.send(events)
        }
    }

    /// The data of a `resync` event.
    struct Resync: Encodable {
        var reason = "events since Last-Event-ID are no longer kept; read the state again"
    }
}

extension Request {
    /// The `Last-Event-ID` header of a reconnecting event-stream client, if any.
    var lastEventID: String? { headers[values: .lastEventID].last }
}
