import DispatchCore
import RoadNetwork

/// Points drawn uniformly inside one zone of a city: the place of a zone-ID trip or of an OD-matrix
/// draw.
///
/// Exact rejection sampling: uniform in the zone's bounding box (all its polygons, for GeoJSON zones), drawn again while the
/// point's zone (`ZoneLayout.zoneIndex(at:)`, the core's own point-in-zone rule) is another one — two
/// uniforms per attempt, 1 attempt for a square, 4/3 on average for a hexagon.
///
/// In a road city each drawn point is snapped to the nearest road and drawn again while the snapped point
/// lies in another zone (a border street), so the point is on a road of its own zone; after
/// `snapAttempts` misses (a zone with no road of its own) the last unsnapped draw is kept.
///
/// Invariant: every point it returns lies in the zone it was asked for.
struct ZonePoints {
    let layout: ZoneLayout
    /// The road network points are snapped to, if any.
    let roads: RoadRouter?
    static let snapAttempts = 1_000
    /// Per zone, its bounding box.
    private let boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]

    init(layout: ZoneLayout, roads: RoadRouter? = nil) {
        self.layout = layout
        self.roads = roads
        boxes = (0..<layout.zoneCount).map { layout.bounds(of: $0) }
    }

    /// A uniform point inside zone `zone`.
    /// - Precondition: `0 <= zone < layout.zoneCount`.
    func point(in zone: Int, _ random: RandomStream) -> Position {
        guard let roads else { return uniform(in: zone, random) }
        var point = uniform(in: zone, random)
        for _ in 0..<Self.snapAttempts {
            let snapped = roads.snap(point).point
            if layout.zoneIndex(at: snapped) == zone { return snapped }
            point = uniform(in: zone, random)
        }
        return point
    }

    private func uniform(in zone: Int, _ random: RandomStream) -> Position {
        let box = boxes[zone]
        while true {
            let p = Position(x: box.minX + random.uniform() * (box.maxX - box.minX),
                             y: box.minY + random.uniform() * (box.maxY - box.minY))
            if layout.zoneIndex(at: p) == zone { return p }
        }
    }

    /// The point of a traced place: itself, or uniform inside its zone.
    func point(of place: TracePlace, _ random: RandomStream) -> Position {
        switch place {
        case .point(let p): return p
        case .zone(let zone): return point(in: Int(zone), random)
        }
    }
}
