import DispatchCore
import Hummingbird

/// The service's state for operators and load tests: every request's status (held in memory or
/// archived), counts by status, the dispatch core's invariant violations and the service clock.
/// Administrators only.
///
/// `GET /v1/admin/state?after=0&limit=1000` → `{"now","clock_rate","counts":{"completed":…},"total":N,
/// "rides":[{"id","status"}],"next_after":ID,"invariant_violations":[…],"replay_refusals":0}`.
///
/// Paged: `rides` holds at most `limit` (1–10000, default 1000) rides with ids above `after` (default 0),
/// in id order; `next_after` is the `after` of the next page, absent on the last. `counts` and `total`
/// cover every ride, held or archived, whatever the page — also the rides the archive's retention
/// (`archive_retain_days`) has deleted, which the pages no longer list: then `total` exceeds the rides paged.
struct AdminStateController {
    let host: DispatchHost

    struct RideState: Codable, Sendable { var id: Int; var status: String }
    struct StateBody: ResponseEncodable, Decodable, Sendable {
        /// The service clock, seconds since 1970 (runs `clock_rate` times the wall clock).
        var now: Double
        var clockRate: Double
        var counts: [String: Int]
        /// Rides in all, held or archived, deleted by retention included (the sum of `counts`).
        var total: Int
        var rides: [RideState]
        /// The next page's `after`; nil on the last page.
        var nextAfter: Int?
        var invariantViolations: [String]
        var replayRefusals: Int
    }

    static let defaultLimit = 1000
    static let maximumLimit = 10_000

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("state", use: state)
        return routes
    }

    @Sendable func state(_ request: Request, context: ServiceRequestContext) async throws -> StateBody {
        _ = try context.require(.admin)
        let after = try request.integer("after", default: 0, in: 0...Int.max)
        let limit = try request.integer("limit", default: Self.defaultLimit, in: 1...Self.maximumLimit)
        let census = await host.census()
        var counts: [String: Int] = [:]
        for ride in census.rides { counts[RideBody.name(of: ride.status), default: 0] += 1 }
        for (status, count) in await host.archivedCounts { counts[RideBody.name(of: status), default: 0] += count }
        // census.rides is sorted by id: the page starts at the first id above `after`.
        var low = 0, high = census.rides.count
        while low < high {
            let middle = (low + high) / 2
            if census.rides[middle].id.rawValue <= after { low = middle + 1 } else { high = middle }
        }
        let held = census.rides[low..<min(low + limit + 1, census.rides.count)]
        let archived = try await host.archivedStates(after: after, limit: limit + 1)
        let merged = HostCensus.merge(Array(held), archived)
        let page = merged.prefix(limit)
        return StateBody(now: census.now, clockRate: host.clock.rate, counts: counts, total: counts.values.reduce(0, +),
                         rides: page.map { RideState(id: $0.id.rawValue, status: RideBody.name(of: $0.status)) },
                         nextAfter: merged.count > limit ? page.last?.id.rawValue : nil,
                         invariantViolations: census.invariantViolations, replayRefusals: census.replayRefusals)
    }
}
