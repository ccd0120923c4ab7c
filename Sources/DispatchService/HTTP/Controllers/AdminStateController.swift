import DispatchCore
import Hummingbird

/// The service's state for operators and load tests: every request's status, counts by
/// status, the dispatch core's invariant violations and the service clock. Administrators only.
///
/// `GET /v1/admin/state` → `{"now","clock_rate","counts":{"completed":…},"rides":[{"id","status"}],
/// "invariant_violations":[…],"replay_refusals":0}`.
struct AdminStateController {
    let host: DispatchHost

    struct RideState: Codable, Sendable { var id: Int; var status: String }
    struct StateBody: ResponseEncodable, Decodable, Sendable {
        /// The service clock, seconds since 1970 (runs `clock_rate` times the wall clock).
        var now: Double
        var clockRate: Double
        var counts: [String: Int]
        var rides: [RideState]
        var invariantViolations: [String]
        var replayRefusals: Int
    }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("state", use: state)
        return routes
    }

    @Sendable func state(_ request: Request, context: ServiceRequestContext) async throws -> StateBody {
        _ = try context.require(.admin)
        let census = await host.census()
        let rides = census.rides.map { RideState(id: $0.id.rawValue, status: RideBody.name(of: $0.status)) }
        var counts: [String: Int] = [:]
        for ride in rides { counts[ride.status, default: 0] += 1 }
        return StateBody(now: census.now, clockRate: host.clock.rate, counts: counts, rides: rides,
                         invariantViolations: census.invariantViolations, replayRefusals: census.replayRefusals)
    }
}
