import DispatchCore
import Hummingbird

/// D14: queue length and nearest-taxi ETA for a position, and the map, for anyone, no login.
///
/// `GET /v1/queue?x=1200&y=800` → `{"length":3,"zone":0}`;
/// `GET /v1/eta?x=1200&y=800` → `{"available":true,"eta_seconds":95.2}`;
/// `GET /v1/city` → the city's area and zones, as `GET /v1/admin/city` shows them (read-only),
/// for the web console's maps.
struct PublicController {
    let host: DispatchHost

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("queue", use: queue)
        routes.get("eta", use: eta)
        routes.get("city", use: city)
        return routes
    }

    @Sendable func queue(_ request: Request, context: ServiceRequestContext) async throws -> QueueBody {
        let position = Position(x: try request.number("x"), y: try request.number("y"))
        for case .queueStatus(let zone, let length) in try await host.query(.queueStatus(position)) {
            return QueueBody(zone: zone.index, length: length)
        }
        throw Problem(from: HTTPError(.internalServerError))
    }

    @Sendable func eta(_ request: Request, context: ServiceRequestContext) async throws -> ArrivalBody {
        let position = Position(x: try request.number("x"), y: try request.number("y"))
        for case .arrivalEstimate(_, let eta) in try await host.query(.estimateArrival(position)) {
            return ArrivalBody(available: eta != nil, etaSeconds: eta)
        }
        throw Problem(from: HTTPError(.internalServerError))
    }

    @Sendable func city(_ request: Request, context: ServiceRequestContext) async throws -> CityBody {
        CityBody(await host.city)
    }
}
