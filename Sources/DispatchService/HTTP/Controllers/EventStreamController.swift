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
        guard let ride = await host.ride(id), ride.customer == customer else { throw DispatchError.unknownRequest(id) }
        let host = host
        return stream.response(for: request) { frames in
            let events = await host.subscribe(.customer(customer))
            let snapshot = await host.ride(id) ?? ride
            try await frames.send("status", RideBody(snapshot))
            guard !snapshot.status.isTerminal else { return }
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

    private func openEnded(_ party: Party, _ request: Request) -> Response {
        let host = host
        return stream.response(for: request) { frames in
            let events = await host.subscribe(party)
            try await frames.comment("subscribed")
            try await frames.send(events)
        }
    }
}
