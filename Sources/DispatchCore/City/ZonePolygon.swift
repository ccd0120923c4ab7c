/// One polygon of a zone, in metres: an outer ring and any holes (GeoJSON's `Polygon`).
///
/// Invariant: at least one ring; every ring has at least 3 points, all finite, and is stored open
/// (the closing point that repeats the first is dropped). Rings need not be oriented either way and
/// may touch; a point is inside when a ray from it crosses the rings' edges an odd number of times
/// (even–odd rule), so a hole is a ring inside the outer ring.
public struct ZonePolygon: Sendable, Equatable {
    /// The outer ring, then the holes.
    public let rings: [[Position]]

    /// - Throws: `DispatchError.invalidConfiguration` naming the ring and the reason.
    public init(rings: [[Position]]) throws(DispatchError) {
        guard !rings.isEmpty else { throw .invalidConfiguration("a polygon needs an outer ring") }
        var open: [[Position]] = []
        for (r, ring) in rings.enumerated() {
            var points = ring
            if points.count > 1, points.first == points.last { points.removeLast() }
            let which = r == 0 ? "outer ring" : "hole \(r)"
            guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
                throw .invalidConfiguration("the polygon's \(which) has a point that is not finite")
            }
            guard Set(points).count >= 3 else {
                throw .invalidConfiguration("the polygon's \(which) has \(Set(points).count) distinct points; a ring needs at least 3")
            }
            open.append(points)
        }
        self.rings = open
    }

    /// The polygon's edges, each ring closed.
    var edges: [(a: Position, b: Position)] {
        rings.flatMap { ring in ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) } }
    }

    /// Area, m²: the outer ring's minus the holes' (shoelace formula).
    public var area: Double {
        rings.enumerated().reduce(0) { total, ring in
            let a = abs(Self.signedArea(ring.element))
            return ring.offset == 0 ? total + a : total - a
        }
    }

    /// The outer ring's area centroid.
    var outerCentroid: Position {
        let ring = rings[0]
        var cx = 0.0, cy = 0.0, twiceArea = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            let cross = p.x * q.y - q.x * p.y
            twiceArea += cross
            cx += (p.x + q.x) * cross
            cy += (p.y + q.y) * cross
        }
        guard twiceArea != 0 else { return ring[0] }
        return Position(x: cx / (3 * twiceArea), y: cy / (3 * twiceArea))
    }

    /// The smallest rectangle holding the outer ring.
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        PolygonZones.union(rings[0].map { ($0.x, $0.y, $0.x, $0.y) })
    }

    /// Whether `p` is inside (even–odd rule over every ring; a point on an edge is inside one of the two
    /// polygons that share the edge, by the half-open crossing rule).
    public func contains(_ p: Position) -> Bool {
        var inside = false
        for (a, b) in edges where Self.crossesRay(from: p, a, b) { inside.toggle() }
        return inside
    }

    /// Whether the edge `a`–`b` crosses the ray from `p` towards +x (half-open in y, so a vertex on the
    /// ray counts once).
    @inline(__always)
    static func crossesRay(from p: Position, _ a: Position, _ b: Position) -> Bool {
        guard (a.y > p.y) != (b.y > p.y) else { return false }
        let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
        return p.x < x
    }

    static func signedArea(_ ring: [Position]) -> Double {
        var twice = 0.0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % ring.count]
            twice += p.x * q.y - q.x * p.y
        }
        return twice / 2
    }
}
