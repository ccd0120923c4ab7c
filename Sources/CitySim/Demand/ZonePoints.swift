import DispatchCore

/// Points drawn uniformly inside one zone of a city: the place of a zone-ID trip or of an OD-matrix
/// draw.
///
/// Exact rejection sampling: uniform in the zone's bounding box (all its polygons, for GeoJSON zones), drawn again while the
/// point's zone (`ZoneLayout.zoneIndex(at:)`, the core's own point-in-zone rule) is another one — two
/// uniforms per attempt, 1 attempt for a square, 4/3 on average for a hexagon.
///
/// Invariant: every point it returns lies in the zone it was asked for.
struct ZonePoints {
    let layout: ZoneLayout
    /// Per zone, its bounding box.
    private let boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)]

    init(layout: ZoneLayout) {
        self.layout = layout
        boxes = (0..<layout.zoneCount).map { layout.bounds(of: $0) }
    }

    /// A uniform point inside zone `zone`.
    /// - Precondition: `0 <= zone < layout.zoneCount`.
    func point(in zone: Int, _ random: RandomStream) -> Position {
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
