/// Zones given as polygons in metres, such as real taxi zones read from GeoJSON, with a grid index
/// that answers "which zone is this point in" without testing every polygon.
///
/// Invariant: at least one zone; each zone is one or more `ZonePolygon`s (a multipolygon); every point
/// lies in at most one zone — where polygons of several zones overlap, the lowest-numbered zone wins —
/// and every zone keeps some point of its own (`centre(of:)` lies in it; a zone so nearly covered by
/// lower-numbered ones that no sampled point is its own is refused). Coordinates may have any sign: a
/// fitted city's demand zones can reach beyond the zones' plane (`city.fit`), where nothing is requested.
///
/// The index is a uniform grid over the zones' bounding rectangle. A cell that no zone edge touches lies
/// wholly inside one zone or outside all of them, decided once at build time. For a cell that edges touch,
/// the index lists the candidate zones, and a point is tested against each candidate's edges in the cell's
/// row band only (a horizontal ray from the point crosses no other edge of that zone).
public final class PolygonZones: Sendable, Equatable, CustomStringConvertible {
    /// The zones' polygons, zone by zone.
    public let zones: [[ZonePolygon]]
    /// Each zone's area, m² (overlaps are counted in each zone they belong to).
    public let areas: [Double]
    /// The smallest rectangle holding every zone.
    public let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// A point inside each zone, used to label it: the area centroid of its largest polygon when it lies
    /// in the zone, otherwise the middle of the widest run inside that polygon along a horizontal line.
    let centres: [Position]
    let index: PolygonZoneIndex

    /// Indexes `zones`.
    /// - Throws: `DispatchError.invalidConfiguration` when there is no zone, a zone has no polygon, a
    ///   coordinate is negative, or a zone lies wholly under lower-numbered zones.
    public init(zones: [[ZonePolygon]]) throws(DispatchError) {
        guard !zones.isEmpty else { throw .invalidConfiguration("polygon zones: no zone") }
        if let empty = zones.firstIndex(where: \.isEmpty) {
            throw .invalidConfiguration("polygon zones: zone \(empty) has no polygon")
        }
        let all = Self.union(zones.map { Self.union($0.map(\.bounds)) })
        guard all.minX.isFinite, all.minY.isFinite, all.maxX.isFinite, all.maxY.isFinite else {
            throw .invalidConfiguration("polygon zones: coordinates must be finite")
        }
        self.zones = zones
        areas = zones.map { $0.reduce(0) { $0 + $1.area } }
        bounds = all
        index = PolygonZoneIndex(zoneEdges: zones.map { $0.flatMap(\.edges) }, bounds: all)
        var found: [Position] = []
        for z in zones.indices {
            guard let centre = Self.findCentre(of: z, zones[z], index) else {
                throw .invalidConfiguration("polygon zones: zone \(z) lies wholly under lower-numbered zones (it would never be used)")
            }
            found.append(centre)
        }
        centres = found
    }

    public static func == (a: PolygonZones, b: PolygonZones) -> Bool { a === b || a.zones == b.zones }

    public var description: String { "\(zones.count) polygon zones" }

    /// The zone containing `p`, or nil outside every zone.
    /// - Complexity: O(1) in a cell no edge crosses; otherwise the candidates' edges in the cell's row band.
    public func zoneIndex(at p: Position) -> Int? { index.zoneIndex(at: p) }

    /// A point inside zone `z`.
    public func centre(of z: Int) -> Position { centres[z] }

    /// The outer rings of zone `z`'s polygons.
    public func outlines(of z: Int) -> [[Position]] { zones[z].map { $0.rings[0] } }

    /// The outer ring of zone `z`'s largest polygon.
    public func outline(of z: Int) -> [Position] { zones[z].max { $0.area < $1.area }!.rings[0] }

    /// The smallest rectangle holding zone `z`.
    public func bounds(of z: Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        Self.union(zones[z].map(\.bounds))
    }

    static func union(_ boxes: [(minX: Double, minY: Double, maxX: Double, maxY: Double)])
        -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        boxes.reduce((Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)) {
            (min($0.0, $1.minX), min($0.1, $1.minY), max($0.2, $1.maxX), max($0.3, $1.maxY))
        }
    }

    /// A point of zone `z`: its largest polygon's centroid if the zone owns it, else the first point the zone
    /// owns among points spread along horizontal lines through its polygons (the middles of the runs inside
    /// them first, then 8 points per run), on 7 lines and then on 255.
    private static func findCentre(of z: Int, _ parts: [ZonePolygon], _ index: PolygonZoneIndex) -> Position? {
        let sorted = parts.sorted(by: { $0.area > $1.area })
        if let centroid = sorted.first?.outerCentroid, index.zoneIndex(at: centroid) == z { return centroid }
        let coarse = [0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875], fine = (1..<256).map { Double($0) / 256 }
        for (fractions, steps) in [(coarse, [0.5]), (fine, (0..<8).map { (Double($0) + 0.5) / 8 })] {
            for part in sorted {
                let box = part.bounds
                let edges = part.edges.map { PolygonZoneIndex.Edge(ax: $0.a.x, ay: $0.a.y, bx: $0.b.x, by: $0.b.y) }
                for fraction in fractions {
                    let y = box.minY + fraction * (box.maxY - box.minY)
                    for run in PolygonZoneIndex.insideRuns(edges[...], y: y).sorted(by: { $0.1 - $0.0 > $1.1 - $1.0 }) {
                        for step in steps {
                            let p = Position(x: run.0 + step * (run.1 - run.0), y: y)
                            if index.zoneIndex(at: p) == z { return p }
                        }
                    }
                }
            }
        }
        return nil
    }
}
