import DispatchCore
import Foundation
import Hummingbird

/// A customer's rides: request (D3–D7, D12), reserve (D11), list, cancel (D10), report (D13).
///
/// `POST /v1/rides` `{"origin":{"x","y"},"destination":{"x","y"},"patience_s":0}` → 201 ride
/// (status `rejected` when no taxi is available, D7); `POST /v1/reservations` with `meeting_time`
/// (ISO 8601); `GET /v1/rides`; `GET /v1/rides/{id}`; `DELETE /v1/rides/{id}`;
/// `POST /v1/rides/{id}/report` (customer or driver of a finished ride).
/// Another customer's ride is a 404, as if it did not exist. Archived rides (ended long ago, out of
/// the host's memory) are read from the store: shown and listed, not cancelled or reported.
struct RideController {
    let host: DispatchHost

    /// `patience_s` may be left out (0), but not sent as `null`.
    struct RideRequest: Decodable, Sendable { var origin: Point; var destination: Point; @Omittable var patienceS: Double? }
    struct ReservationRequest: Decodable { var origin: Point; var destination: Point; var meetingTime: Date }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.post("rides", use: request)
        routes.post("reservations", use: reserve)
        routes.get("rides", use: list)
        routes.get("rides/{id}", use: show)
        routes.delete("rides/{id}", use: cancel)
        routes.post("rides/{id}/report", use: report)
        return routes
    }

    @Sendable func request(_ request: Request, context: ServiceRequestContext) async throws -> EditedResponse<RideBody> {
        let customer = CustomerID(try context.require(.customer).accountID)
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let body = if let read = RideRequestReader.read(buffer) { read }
            else { try await request.decode(as: RideRequest.self, context: context) }
        return EditedResponse(status: .created, response: RideBody(try await Self.requestRide(body, for: customer, on: host)))
    }

    /// D3: asks `host` for the ride `body` describes, the problem naming the field at fault. (`RideFastPath`
    /// asks through the host's inbox instead, `submitRide`, and names the field with `naming(_:_:_:)`.)
    static func requestRide(_ body: RideRequest, for customer: CustomerID, on host: DispatchHost) async throws -> RideSnapshot {
        try await naming(body.origin, body.destination) {
            try await host.requestRide(customer: customer, from: body.origin.position,
                                       to: body.destination.position, patience: body.patienceS ?? 0)
        }
    }

    @Sendable func reserve(_ request: Request, context: ServiceRequestContext) async throws -> EditedResponse<RideBody> {
        let customer = CustomerID(try context.require(.customer).accountID)
        let body = try await request.decode(as: ReservationRequest.self, context: context)
        let ride = try await Self.naming(body.origin, body.destination) {
            try await host.reserveRide(customer: customer, from: body.origin.position, to: body.destination.position,
                                       meetingTime: body.meetingTime.timeIntervalSince1970)
        }
        return EditedResponse(status: .created, response: RideBody(ride))
    }

    @Sendable func list(_ request: Request, context: ServiceRequestContext) async throws -> RideList {
        let customer = CustomerID(try context.require(.customer).accountID)
        return RideList(rides: try await host.storedRides(of: customer).map(RideBody.init))
    }

    @Sendable func show(_ request: Request, context: ServiceRequestContext) async throws -> RideBody {
        RideBody(try await ownRide(context))
    }

    @Sendable func cancel(_ request: Request, context: ServiceRequestContext) async throws -> RideBody {
        let ride = try await ownRide(context)
        guard await host.ride(ride.id) != nil else {  // archived: it ended long ago
            throw DispatchError.illegalRequestTransition(ride.id, state: ride.status, command: "be cancelled")
        }
        try await host.execute(.cancel(ride.id, by: ride.customer))
        return RideBody(await host.ride(ride.id)!)
    }

    @Sendable func report(_ request: Request, context: ServiceRequestContext) async throws -> ReportBody {
        let identity = try context.require(.customer, .driver)
        let id = RequestID(try context.pathID())
        let reporter: Reporter
        if identity.role == .customer {
            _ = try await ownRide(context)
            guard await host.ride(id) != nil else {
                throw DispatchError.reportNotAllowed(id, reason: "the ride has been archived: reports are taken until then")
            }
            reporter = .customer(CustomerID(identity.accountID))
        } else {
            guard await host.isParty(DriverID(identity.accountID), to: id) else { throw DispatchError.unknownRequest(id) }
            reporter = .driver(DriverID(identity.accountID))
        }
        for case .reportRecorded(_, let count) in try await host.execute(.report(reporter, id)) {
            return ReportBody(count: count)
        }
        throw Problem(from: HTTPError(.internalServerError))
    }

    /// Runs `body`, naming the field at fault in the problem when the core refuses a position
    /// outside the city (`origin` or `destination`) or a reservation too soon (`meeting_time`).
    static func naming(_ origin: Point, _ destination: Point,
                       _ body: () async throws -> RideSnapshot) async throws -> RideSnapshot {
        do {
            return try await body()
        } catch {
            throw naming(error, origin, destination)
        }
    }

    /// `error`, as a problem naming the field at fault when it is the core's refusal (see above).
    static func naming(_ error: any Error, _ origin: Point, _ destination: Point) -> any Error {
        guard let error = error as? DispatchError else { return error }
        var problem = Problem(error)
        switch error {
        case .positionOutsideCity(let p): problem.field = p == origin.position ? "origin" : "destination"
        case .reservationTooSoon: problem.field = "meeting_time"
        default: break
        }
        return problem
    }

    /// The caller's own ride named by `{id}`, held or archived; anyone else's is "unknown".
    private func ownRide(_ context: ServiceRequestContext) async throws -> RideSnapshot {
        let customer = CustomerID(try context.require(.customer).accountID)
        let id = RequestID(try context.pathID())
        guard let ride = try await host.storedRide(id), ride.customer == customer else { throw DispatchError.unknownRequest(id) }
        return ride
    }
}
