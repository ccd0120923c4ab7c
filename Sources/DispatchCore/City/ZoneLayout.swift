import Foundation

/// How a city rectangle `[0, width] × [0, height]` is cut into zones (D1: shape and size are parameters):
/// "which zone is this point in, and what are the zones". The zone queues do not care about shapes.
///
/// Whole-zone layouts (`.square`, `.hexagon`) clip the city to whole zones: every zone has exactly the
/// stated area, and the served area is the union of the zones; a point of the rectangle outside every
/// zone is outside the city. Both shapes are centred in the rectangle, so the strips no whole zone fits are
/// split evenly between opposite edges: squares in rows and columns; hexagons pointy-top, rows south to north,
/// odd rows shifted east by half a hexagon.
/// `.polygons` takes the zones as given (`PolygonZones`: real taxi zones, such as those read from GeoJSON);
/// the served area is the union of the polygons, and a point in several is in the lowest-numbered one.
/// `.cutSquares` is the layout before whole zones: squares from the south-west corner whose last row and
/// column are cut by the city edge; it exists so that old command logs replay unchanged.
///
/// Invariant: `zoneCount >= 1`; zones are numbered row by row from the south-west, `0 ..< zoneCount`;
/// every point of the served area lies in exactly one zone, and `zoneIndex(at:)` is allocation-free and O(1)
/// (polygons: O(1) in most grid cells, else the few edges near the point; see `PolygonZones`).
///
/// ```swift
/// let hexes = try ZoneLayout(shape: .hexagon, zoneArea: 2_000_000, width: 10_000, height: 10_000)
/// hexes.zoneIndex(at: Position(x: 5_000, y: 5_000))   // the hexagon containing the city centre
/// hexes.outline(of: 0)                               // its six corners, counter-clockwise
/// ```
public struct ZoneLayout: Sendable, Equatable {
    /// Zone shapes.
    public enum Shape: String, Sendable, CaseIterable, Codable {
        /// Whole squares of the stated area; the north and east strips that do not fit a square are left out.
        case square
        /// Whole regular hexagons (pointy-top) of the stated area, centred in the city rectangle.
        case hexagon
        /// Squares whose last row and column are cut by the city edge (before whole zones; old logs).
        case cutSquares = "cut-squares"
        /// Polygons given zone by zone (`PolygonZones`), such as real taxi zones from GeoJSON.
        case polygons
    }

    public let shape: Shape
    /// Area of every zone, m² (the cut squares' edge zones are smaller).
    public let zoneArea: Double
    /// Side of a square, or edge (= circumradius) of a hexagon, metres.
    public let side: Double
    /// Zone columns: squares per row, or hexagons in an even row.
    public let columns: Int
    /// Hexagons in an odd row (equal to `columns` for squares).
    public let oddRowColumns: Int
    /// Zone rows, south to north.
    public let rows: Int
    /// Squares: the south-west corner of zone 0. Hexagons: the centre of zone 0.
    public let origin: Position
    /// The city rectangle the zones are laid in.
    public let width: Double, height: Double
    public let zoneCount: Int
    /// The zones' polygons when `shape == .polygons`, else nil: a handle into `PolygonZones.interned`, so
    /// that `ZoneLayout` stays plain data (trivially copyable). The dispatch core reads its layout on every
    /// zone lookup; a counted reference here cost every decision a retain and a release (+219 instructions,
    /// +7 % for zone FIFO, `Results/bench/gate-check-4.txt`).
    let polygonSet: Int32

    /// The zones' polygons when `shape == .polygons`, else nil.
    public var polygons: PolygonZones? { polygonSet < 0 ? nil : PolygonZones.interned(polygonSet) }

    /// Width of a pointy-top hexagon (flat side to flat side) of edge `side`.
    @inlinable var hexagonWidth: Double { side * 3.0.squareRoot() }

    /// Lays zones of `zoneArea` m² of `shape` in the rectangle `width × height`.
    /// - Throws: `DispatchError.invalidConfiguration` when a size is not finite and positive, or when not one
    ///   whole zone fits the rectangle.
    public init(shape: Shape, zoneArea: Double, width: Double, height: Double) throws(DispatchError) {
        guard zoneArea.isFinite, zoneArea > 0 else {
            throw .invalidConfiguration("zone area must be finite and > 0 (got \(zoneArea) m²)")
        }
        let side = shape == .hexagon ? (2 * zoneArea / (3 * 3.0.squareRoot())).squareRoot() : zoneArea.squareRoot()
        try self.init(shape: shape, side: side, width: width, height: height)
    }

    /// Lays zones of `shape` with side (square) or edge (hexagon) `side` metres in the rectangle `width × height`.
    /// - Throws: `DispatchError.invalidConfiguration` as `init(shape:zoneArea:width:height:)`.
    public init(shape: Shape, side: Double, width: Double, height: Double) throws(DispatchError) {
        guard width.isFinite, width > 0, height.isFinite, height > 0 else {
            throw .invalidConfiguration("city width and height must be finite and > 0 (got \(width) × \(height) m)")
        }
        guard side.isFinite, side > 0 else {
            throw .invalidConfiguration("zone side must be finite and > 0 (got \(side) m)")
        }
        guard shape != .polygons else { throw .invalidConfiguration("polygon zones are laid by init(polygons:)") }
        self.shape = shape
        self.side = side
        self.width = width
        self.height = height
        polygonSet = -1
        // A relative tolerance so that a side computed as √area still fits a city it divides exactly.
        let slack = 1 + 1e-9
        switch shape {
        case .cutSquares:
            guard side <= max(width, height) else {
                throw .invalidConfiguration("zone side must be at most the city size (got \(side) m)")
            }
            zoneArea = side * side
            columns = max(1, Int((width / side).rounded(.up)))
            rows = max(1, Int((height / side).rounded(.up)))
            oddRowColumns = columns
            origin = Position(x: 0, y: 0)
        case .square:
            columns = Int((width * slack / side).rounded(.down))
            rows = Int((height * slack / side).rounded(.down))
            guard columns >= 1, rows >= 1 else {
                throw .invalidConfiguration("a \(Self.metres(side)) m square zone does not fit a \(Self.metres(width)) × \(Self.metres(height)) m city")
            }
            zoneArea = side * side
            oddRowColumns = columns
            origin = Position(x: max(0, (width - Double(columns) * side) / 2), y: max(0, (height - Double(rows) * side) / 2))
        case .hexagon:
            let hexWidth = side * 3.0.squareRoot()
            let even = Int((width * slack / hexWidth).rounded(.down))
            let rowCount = height * slack < 2 * side ? 0 : Int(((height * slack - 2 * side) / (1.5 * side)).rounded(.down)) + 1
            guard even >= 1, rowCount >= 1 else {
                throw .invalidConfiguration("a hexagonal zone of edge \(Self.metres(side)) m does not fit a \(Self.metres(width)) × \(Self.metres(height)) m city")
            }
            // Odd rows sit half a hexagon east: they keep `even` hexagons when that half still fits.
            let odd = rowCount == 1 ? 0 : (width * slack >= (Double(even) + 0.5) * hexWidth ? even : even - 1)
            let patternWidth = rowCount > 1 && odd == even ? (Double(even) + 0.5) * hexWidth : Double(even) * hexWidth
            let patternHeight = 2 * side + 1.5 * side * Double(rowCount - 1)
            zoneArea = 1.5 * 3.0.squareRoot() * side * side
            columns = even
            oddRowColumns = odd
            rows = rowCount
            origin = Position(x: (width - patternWidth) / 2 + hexWidth / 2, y: (height - patternHeight) / 2 + side)
        case .polygons: preconditionFailure("guarded above")
        }
        zoneCount = shape == .hexagon ? (rows + 1) / 2 * columns + rows / 2 * oddRowColumns : rows * columns
        guard zoneCount >= 1 else { throw .invalidConfiguration("no whole zone fits the city") }
    }

    /// Polygon zones in a city of `width × height` metres (default: reaching the zones' east and north edges).
    /// `zoneArea` and `side` describe the mean zone (area and √area); there is one row of `zoneCount` columns.
    /// - Throws: `DispatchError.invalidConfiguration` when a zone reaches beyond the city.
    public init(polygons: PolygonZones, width: Double? = nil, height: Double? = nil) throws(DispatchError) {
        let b = polygons.bounds
        let width = width ?? b.maxX, height = height ?? b.maxY
        guard width.isFinite, height.isFinite, b.maxX <= width, b.maxY <= height, width > 0, height > 0 else {
            throw .invalidConfiguration("polygon zones reach \(Self.metres(b.maxX)) × \(Self.metres(b.maxY)) m, beyond the \(Self.metres(width)) × \(Self.metres(height)) m city")
        }
        shape = .polygons
        polygonSet = PolygonZones.intern(polygons)
        self.width = width
        self.height = height
        zoneCount = polygons.zones.count
        zoneArea = polygons.areas.reduce(0, +) / Double(zoneCount)
        side = zoneArea.squareRoot()
        columns = zoneCount
        oddRowColumns = zoneCount
        rows = 1
        origin = Position(x: b.minX, y: b.minY)
    }

    // MARK: - Point in zone

    /// The zone containing `position`, or nil outside every zone (outside the served area).
    /// Points on a shared edge belong to one of the zones.
    /// - Complexity: O(1), no allocation.
    ///
    /// Squares, the common layout, are found inline at the caller (every request, drop-off and queue join
    /// asks); the other shapes out of line.
    @inlinable @inline(__always)
    public func zoneIndex(at position: Position) -> Int? {
        switch place(of: position) {
        case .outside: return nil
        case .otherShape(let zone): return zone
        case .square(let fx, let fy):
            let column = min(columns &- 1, Int(fx)), row = min(rows &- 1, Int(fy))
            return row &* columns &+ column
        }
    }

    /// Whether `position` is in a zone: `zoneIndex(at:) != nil`, by the same tests (`place(of:)`), without
    /// working out a square's column and row (two checked conversions and a multiplication).
    @inlinable @inline(__always)
    public func contains(_ position: Position) -> Bool {
        if case .outside = place(of: position) { return false }
        return true
    }

    /// Where a point falls: outside every zone, in the zone of another shape, or in the grid of squares at
    /// the fractional column and row (both within the grid).
    @usableFromInline
    enum Place {
        case outside
        case otherShape(Int)
        case square(fx: Double, fy: Double)
    }

    /// The tests `zoneIndex(at:)` and `contains(_:)` share. The range tests also refuse NaN and infinities
    /// (every comparison with NaN is false).
    @inlinable @inline(__always)
    func place(of position: Position) -> Place {
        let x = position.x, y = position.y
        guard x >= 0, x <= width, y >= 0, y <= height else { return .outside }
        guard shape == .square else { return otherShapeZoneIndex(at: position).map { .otherShape($0) } ?? .outside }
        let fx = (x - origin.x) / side, fy = (y - origin.y) / side
        guard fx >= 0, fy >= 0, fx <= Double(columns), fy <= Double(rows) else { return .outside }
        return .square(fx: fx, fy: fy)
    }

    /// `zoneIndex(at:)` of a point inside the city rectangle, for the shapes other than whole squares.
    @usableFromInline
    func otherShapeZoneIndex(at position: Position) -> Int? {
        let x = position.x, y = position.y
        switch shape {
        case .cutSquares:
            let column = min(columns - 1, Int(x / side)), row = min(rows - 1, Int(y / side))
            return row * columns + column
        case .square:
            preconditionFailure("squares are found inline")
        case .hexagon:
            return hexagonIndex(x: x - origin.x, y: y - origin.y)
        case .polygons:
            return polygons?.zoneIndex(at: position)
        }
    }

    /// The hexagon containing the point `(x, y)` relative to zone 0's centre: axial coordinates rounded in
    /// cube space (the nearest hexagon centre), then odd-row offset coordinates.
    @inlinable
    func hexagonIndex(x: Double, y: Double) -> Int? {
        let q = (x * 3.0.squareRoot() / 3 - y / 3) / side
        let r = (y * 2 / 3) / side
        let s = -q - r
        var rq = q.rounded(), rr = r.rounded()
        let rs = s.rounded()
        let dq = abs(rq - q), dr = abs(rr - r), ds = abs(rs - s)
        if dq > dr && dq > ds { rq = -rr - rs } else if dr > ds { rr = -rq - rs }
        guard rr >= 0, rr < Double(rows) else { return nil }
        let row = Int(rr)
        let column = Int(rq) + (row - (row & 1)) / 2
        let inRow = row & 1 == 0 ? columns : oddRowColumns
        guard column >= 0, column < inRow else { return nil }
        return (row + 1) / 2 * columns + row / 2 * oddRowColumns + column
    }

    // MARK: - Zones for reports

    /// Row (south to north) and column (west to east) of a zone.
    public func rowAndColumn(of zone: Int) -> (row: Int, column: Int) {
        guard shape != .polygons else { return (0, zone) }
        guard shape == .hexagon else { return (zone / columns, zone % columns) }
        let pair = columns + oddRowColumns
        let row = 2 * (zone / pair), rest = zone % pair
        return rest < columns ? (row, rest) : (row + 1, rest - columns)
    }

    /// The centre of a zone (the cut squares' edge zones: the centre of the part inside the city; a polygon
    /// zone: a point inside it, see `PolygonZones.centre(of:)`).
    public func centre(of zone: Int) -> Position {
        let (row, column) = rowAndColumn(of: zone)
        switch shape {
        case .polygons: return polygons!.centre(of: zone)
        case .cutSquares:
            let x0 = Double(column) * side, y0 = Double(row) * side
            return Position(x: (x0 + min(width, x0 + side)) / 2, y: (y0 + min(height, y0 + side)) / 2)
        case .square:
            return Position(x: origin.x + (Double(column) + 0.5) * side, y: origin.y + (Double(row) + 0.5) * side)
        case .hexagon:
            return Position(x: origin.x + (Double(column) + (row & 1 == 1 ? 0.5 : 0)) * hexagonWidth,
                            y: origin.y + Double(row) * 1.5 * side)
        }
    }

    /// The zone's corners, counter-clockwise from the south-west (squares) or the south (hexagons); a polygon
    /// zone's largest polygon's outer ring (`outlines(of:)` has all of them).
    public func outline(of zone: Int) -> [Position] {
        if let polygons { return polygons.outline(of: zone) }
        let c = centre(of: zone)
        switch shape {
        case .cutSquares, .square, .polygons:
            let (row, column) = rowAndColumn(of: zone)
            let x0 = origin.x + Double(column) * side, y0 = origin.y + Double(row) * side
            let x1 = min(width, x0 + side), y1 = min(height, y0 + side)
            return [Position(x: x0, y: y0), Position(x: x1, y: y0), Position(x: x1, y: y1), Position(x: x0, y: y1)]
        case .hexagon:
            return (0..<6).map { k in
                let angle = Double.pi / 2 * 3 + Double(k) * Double.pi / 3   // 270°, 330°, 30°, …: pointy-top
                return Position(x: c.x + side * cos(angle), y: c.y + side * sin(angle))
            }
        }
    }

    /// Outer rings of the zone's polygons (one for squares and hexagons).
    public func outlines(of zone: Int) -> [[Position]] { polygons?.outlines(of: zone) ?? [outline(of: zone)] }

    /// The smallest rectangle holding zone `zone`.
    public func bounds(of zone: Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        if let polygons { return polygons.bounds(of: zone) }
        return PolygonZones.union(outline(of: zone).map { ($0.x, $0.y, $0.x, $0.y) })
    }

    /// The smallest rectangle holding every zone: `(minX, minY, maxX, maxY)`.
    public var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        switch shape {
        case .polygons: return polygons!.bounds
        case .cutSquares: return (0, 0, width, height)
        case .square:
            return (origin.x, origin.y, min(width, origin.x + Double(columns) * side), min(height, origin.y + Double(rows) * side))
        case .hexagon:
            let wide = oddRowColumns == columns && rows > 1 ? Double(columns) + 0.5 : Double(columns)
            return (origin.x - hexagonWidth / 2, origin.y - side,
                    origin.x - hexagonWidth / 2 + wide * hexagonWidth, origin.y + side + 1.5 * side * Double(rows - 1))
        }
    }

    /// Area of the served part of the city (every zone's area; the whole rectangle for cut squares), m².
    /// Polygon zones: the sum of their areas.
    public var servedArea: Double { shape == .cutSquares ? width * height : Double(zoneCount) * zoneArea }

    static func metres(_ value: Double) -> String { String(format: "%.0f", value) }
}
