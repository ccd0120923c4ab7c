/// Identifies one zone of the city grid (D1). Zones are numbered row by row
/// from the south-west corner: `index = row * columns + column`.
public struct ZoneID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: ZoneID, b: ZoneID) -> Bool { a.index < b.index }
    public var description: String { "zone \(index)" }
}

/// A rectangular city divided into square zones (D1).
///
/// Invariant: `width > 0`, `height > 0`, `0 < zoneSide <= max(width, height)`;
/// the last row and column of zones may be cut by the city edge. Every finite
/// position inside `[0, width] × [0, height]` lies in exactly one zone.
public struct CityGeometry: Sendable, Equatable {
    /// City extent east–west, metres.
    public let width: Double
    /// City extent south–north, metres.
    public let height: Double
    /// Side of a square zone, metres.
    public let zoneSide: Double
    /// Number of zone columns (west → east).
    public let columns: Int
    /// Number of zone rows (south → north).
    public let rows: Int

    /// A city of `width × height` metres with square zones of side `zoneSide` metres.
    /// - Throws: `DispatchError.invalidConfiguration` when a size is not finite and positive.
    public init(width: Double, height: Double, zoneSide: Double) throws(DispatchError) {
        guard width.isFinite, width > 0, height.isFinite, height > 0 else {
            throw .invalidConfiguration("city width and height must be finite and > 0 (got \(width) × \(height) m)")
        }
        guard zoneSide.isFinite, zoneSide > 0, zoneSide <= max(width, height) else {
            throw .invalidConfiguration("zone side must be finite, > 0 and at most the city size (got \(zoneSide) m)")
        }
        self.width = width
        self.height = height
        self.zoneSide = zoneSide
        self.columns = max(1, Int((width / zoneSide).rounded(.up)))
        self.rows = max(1, Int((height / zoneSide).rounded(.up)))
    }

    /// A city whose zones have the given area (TAXInseconds: 2 km² each), as squares.
    public init(width: Double, height: Double, zoneArea: Double) throws(DispatchError) {
        guard zoneArea.isFinite, zoneArea > 0 else {
            throw .invalidConfiguration("zone area must be finite and > 0 (got \(zoneArea) m²)")
        }
        try self.init(width: width, height: height, zoneSide: zoneArea.squareRoot())
    }

    /// Number of zones.
    public var zoneCount: Int { rows * columns }

    /// Whether `position` is finite and inside the city.
    @inlinable
    public func contains(_ position: Position) -> Bool {
        position.x.isFinite && position.y.isFinite
            && position.x >= 0 && position.x <= width && position.y >= 0 && position.y <= height
    }

    /// The zone that contains `position`.
    /// - Throws: `DispatchError.positionOutsideCity` for non-finite or outside positions.
    /// - Complexity: O(1).
    public func zone(of position: Position) throws(DispatchError) -> ZoneID {
        guard contains(position) else { throw .positionOutsideCity(position) }
        return ZoneID(unsafeZoneIndex(position))
    }

    /// Zone index of a position known to be inside the city.
    @inlinable
    func unsafeZoneIndex(_ position: Position) -> Int {
        let column = min(columns - 1, Int(position.x / zoneSide))
        let row = min(rows - 1, Int(position.y / zoneSide))
        return row * columns + column
    }

    /// The centre of a zone (clipped to the city for edge zones).
    public func centre(of zone: ZoneID) -> Position {
        let column = zone.index % columns, row = zone.index / columns
        let x0 = Double(column) * zoneSide, y0 = Double(row) * zoneSide
        return Position(x: (x0 + min(width, x0 + zoneSide)) / 2, y: (y0 + min(height, y0 + zoneSide)) / 2)
    }
}
