import DispatchCore
import Hummingbird

/// Administrators read and set the map: the city's area and its square zones (D1), metres
/// from the south-west corner.
///
/// `GET /v1/admin/city` → `{"width","height","zone_side","zone_area","columns","rows","zone_count",
/// "zones":[{"id","min_x","min_y","max_x","max_y"}]}`;
/// `PUT /v1/admin/city` `{"width","height","zone_side"}` (or `"zone_area"` in m² instead of the side)
/// → the new map. Refused with 409 `city-in-use` while a taxi is on shift or a ride or reservation
/// is open (queues are per zone), with 422 `invalid-city` for a size out of range.
///
/// Invariant: a change is a logged command (`.setCity`), so a restart replays it before the
/// commands that came after it; drivers already added stay known.
struct CityController {
    let host: DispatchHost

    /// Largest side of the city, metres, and largest number of zones the API accepts.
    static let maximumSide = 500_000.0
    static let maximumZoneCount = 10_000

    struct Change: Decodable {
        var width: Double
        var height: Double
        var zoneSide: Double?
        var zoneArea: Double?
    }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("city", use: show)
        routes.put("city", use: change)
        return routes
    }

    @Sendable func show(_ request: Request, context: ServiceRequestContext) async throws -> CityBody {
        _ = try context.require(.admin)
        return CityBody(await host.city)
    }

    @Sendable func change(_ request: Request, context: ServiceRequestContext) async throws -> CityBody {
        _ = try context.require(.admin)
        let body = try await request.decode(as: Change.self, context: context)
        let city = try Self.geometry(body)
        try await host.execute(.setCity(city))
        return CityBody(await host.city)
    }

    /// The requested map, or 422 naming what is out of range.
    static func geometry(_ change: Change) throws -> CityGeometry {
        func invalid(_ why: String) -> Problem { Problem(.unprocessableContent, "invalid-city", detail: why) }
        let side: Double
        switch (change.zoneSide, change.zoneArea) {
        case (let s?, nil): side = s
        case (nil, let a?): side = a.squareRoot()
        default: throw invalid("give exactly one of zone_side (m) and zone_area (m²)")
        }
        for (name, value) in [("width", change.width), ("height", change.height)]
        where !(value.isFinite && value > 0 && value <= maximumSide) {
            throw invalid("\(name) must be > 0 and at most \(Int(maximumSide)) m")
        }
        guard side.isFinite, side > 0, side <= min(change.width, change.height) else {
            throw invalid("the zone side must be > 0 and at most the city's smaller side")
        }
        let zones = (change.width / side).rounded(.up) * (change.height / side).rounded(.up)
        guard zones <= Double(maximumZoneCount) else {
            throw invalid("\(Int(zones)) zones; at most \(maximumZoneCount) are allowed")
        }
        return try CityGeometry(width: change.width, height: change.height, zoneSide: side)
    }
}

/// The map as the API shows it; each zone's bounds are clipped to the city.
struct CityBody: ResponseEncodable, Decodable, Sendable {
    struct Zone: Codable, Sendable {
        var id: Int
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    var width: Double
    var height: Double
    var zoneSide: Double
    var zoneArea: Double
    var columns: Int
    var rows: Int
    var zoneCount: Int
    /// Row by row from the south-west corner: zone `row * columns + column`.
    var zones: [Zone]

    init(_ city: CityGeometry) {
        width = city.width
        height = city.height
        zoneSide = city.zoneSide
        zoneArea = city.zoneSide * city.zoneSide
        columns = city.columns
        rows = city.rows
        zoneCount = city.zoneCount
        zones = (0..<city.zoneCount).map { id in
            let x = Double(id % city.columns) * city.zoneSide, y = Double(id / city.columns) * city.zoneSide
            return Zone(id: id, minX: x, minY: y, maxX: min(city.width, x + city.zoneSide),
                        maxY: min(city.height, y + city.zoneSide))
        }
    }
}
