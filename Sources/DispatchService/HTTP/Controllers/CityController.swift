import DispatchCore
import Hummingbird

/// Administrators read and set the map: the city's area and its zones (D1), squares or hexagons,
/// metres from the south-west corner.
///
/// `GET /v1/admin/city` → `{"width","height","zone_shape","zone_side","zone_area","columns","rows","zone_count",
/// "zones":[{"id","centre_x","centre_y","outline":[[x,y],…],"min_x","min_y","max_x","max_y"}]}`;
/// `PUT /v1/admin/city` `{"width","height","zone_shape","zone_side"}` (or `"zone_area"` in m² instead of the
/// side; `zone_shape` is `square` (default) or `hexagon`, whose `zone_side` is the hexagon's edge) → the new map.
/// Zones are whole: the city is clipped to the zones that fit. Refused with 409 `city-in-use` while a taxi is
/// on shift or a ride or reservation is open (queues are per zone), with 422 `invalid-city` for a size out of
/// range or an unknown shape.
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
        var zoneShape: String?
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
        let shape: ZoneLayout.Shape
        switch change.zoneShape {
        case nil, "square": shape = .square
        case "hexagon": shape = .hexagon
        case let other?: throw invalid("zone_shape must be square or hexagon (got '\(other)')")
        }
        for (name, value) in [("width", change.width), ("height", change.height)]
        where !(value.isFinite && value > 0 && value <= maximumSide) {
            throw invalid("\(name) must be > 0 and at most \(Int(maximumSide)) m")
        }
        let side: Double
        switch (change.zoneSide, change.zoneArea) {
        case (let s?, nil): side = s
        case (nil, let a?):
            guard a.isFinite, a > 0 else { throw invalid("zone_area must be > 0") }
            side = shape == .hexagon ? (2 * a / (3 * 3.0.squareRoot())).squareRoot() : a.squareRoot()
        default: throw invalid("give exactly one of zone_side (m) and zone_area (m²)")
        }
        guard side.isFinite, side > 0 else { throw invalid("the zone side must be > 0") }
        // A bound on the zone count before laying them out: the rectangle's area over a zone's.
        let zoneArea = shape == .hexagon ? 1.5 * 3.0.squareRoot() * side * side : side * side
        guard change.width * change.height / zoneArea <= Double(maximumZoneCount) * 1.5 else {
            throw invalid("too many zones; at most \(maximumZoneCount) are allowed")
        }
        let layout: ZoneLayout
        do { layout = try ZoneLayout(shape: shape, side: side, width: change.width, height: change.height) } catch {
            throw invalid("no whole \(shape.rawValue) zone of side \(Int(side)) m fits a \(Int(change.width)) × \(Int(change.height)) m city")
        }
        guard layout.zoneCount <= maximumZoneCount else {
            throw invalid("\(layout.zoneCount) zones; at most \(maximumZoneCount) are allowed")
        }
        return CityGeometry(layout: layout)
    }
}

/// The map as the API shows it: each zone's centre, its outline (counter-clockwise corners) and bounding box.
struct CityBody: ResponseEncodable, Decodable, Sendable {
    struct Zone: Codable, Sendable {
        var id: Int
        var centreX: Double, centreY: Double
        var outline: [[Double]]
        var minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    var width: Double
    var height: Double
    /// `square`, `hexagon`, or `cut-squares` (a map set before zone shapes, replayed from an old log).
    var zoneShape: String
    /// Side of a square zone, or edge of a hexagonal one.
    var zoneSide: Double
    var zoneArea: Double
    var columns: Int
    var rows: Int
    var zoneCount: Int
    /// Row by row from the south-west corner (hexagons: odd rows shifted half a hexagon east).
    var zones: [Zone]

    init(_ city: CityGeometry) {
        width = city.width
        height = city.height
        zoneShape = city.zoneShape.rawValue
        zoneSide = city.zoneSide
        zoneArea = city.zoneArea
        columns = city.columns
        rows = city.rows
        zoneCount = city.zoneCount
        zones = (0..<city.zoneCount).map { id in
            let centre = city.centre(of: ZoneID(id)), corners = city.outline(of: ZoneID(id))
            return Zone(id: id, centreX: centre.x, centreY: centre.y, outline: corners.map { [$0.x, $0.y] },
                        minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                        maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
        }
    }
}
