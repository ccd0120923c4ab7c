import DispatchCore
import Hummingbird

/// A driver's own taxi: shift (start at a position / end), availability (D2), GPS position,
/// offers (D3–D5: accept / decline) and rides (pickup, drop-off). Offers and rides of
/// other drivers are a 404.
///
/// `GET /v1/driver`; `POST /v1/driver/shift` `{"action":"start","position":{"x","y"}}` or `{"action":"end"}`;
/// `PUT /v1/driver/availability` `{"available":true}`; `PUT /v1/driver/position` `{"x","y"}`;
/// `POST /v1/driver/offers/{id}/accept|decline`; `POST /v1/driver/rides/{id}/pickup`;
/// `POST /v1/driver/rides/{id}/dropoff` `{"x","y"}`.
struct DriverController {
    let host: DispatchHost

    /// `position` may be left out (to end a shift), but not sent as `null`.
    struct Shift: Decodable { var action: String; @Omittable var position: Point? }
    struct Availability: Decodable { var available: Bool }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get(use: show)
        routes.post("shift", use: shift)
        routes.put("availability", use: availability)
        routes.put("position", use: position)
        routes.post("offers/{id}/accept") { try await act(.accept, $0, $1) }
        routes.post("offers/{id}/decline") { try await act(.decline, $0, $1) }
        routes.post("rides/{id}/pickup") { try await act(.pickedUp, $0, $1) }
        routes.post("rides/{id}/dropoff") { try await act(.droppedOff, $0, $1) }
        return routes
    }

    enum Action { case accept, decline, pickedUp, droppedOff }

    func me(_ context: ServiceRequestContext) throws -> DriverID { DriverID(try context.require(.driver).accountID) }

    @Sendable func show(_ request: Request, context: ServiceRequestContext) async throws -> DriverBody {
        let driver = try me(context)
        guard let snapshot = await host.driver(driver) else { throw DispatchError.unknownDriver(driver) }
        var body = DriverBody(snapshot)
        if let place = await host.queuePlace(of: driver) {
            body.queuePosition = place.position
            body.queueLength = place.length
        }
        return body
    }

    @Sendable func shift(_ request: Request, context: ServiceRequestContext) async throws -> DriverBody {
        let driver = try me(context)
        let body = try await request.decode(as: Shift.self, context: context)
        switch body.action {
        case "start":
            guard let position = body.position else { throw Problem.badRequest("starting a shift needs a position") }
            try await host.execute(.startShift(driver, at: position.position))
        case "end": try await host.execute(.endShift(driver))
        default: throw Problem.badRequest("action must be start or end")
        }
        return try await show(request, context: context)
    }

    @Sendable func availability(_ request: Request, context: ServiceRequestContext) async throws -> DriverBody {
        let driver = try me(context)
        let body = try await request.decode(as: Availability.self, context: context)
        try await host.execute(.setAvailable(driver, body.available))
        return try await show(request, context: context)
    }

    @Sendable func position(_ request: Request, context: ServiceRequestContext) async throws -> DriverBody {
        let driver = try me(context)
        let body = try await request.decode(as: Point.self, context: context)
        try await host.moveTaxi(driver, to: body.position)
        return try await show(request, context: context)
    }

    @Sendable func act(_ action: Action, _ request: Request, _ context: ServiceRequestContext) async throws -> DriverBody {
        let driver = try me(context)
        let ride = RequestID(try context.pathID())
        guard await host.isParty(driver, to: ride) else { throw DispatchError.unknownRequest(ride) }
        switch action {
        case .accept: try await host.execute(.accept(driver, ride))
        case .decline: try await host.execute(.decline(driver, ride))
        case .pickedUp: try await host.pickUp(driver, ride)
        case .droppedOff:
            let at = try await request.decode(as: Point.self, context: context)
            try await host.execute(.droppedOff(driver, ride, at: at.position))
        }
        return try await show(request, context: context)
    }
}
