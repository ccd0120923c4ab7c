/// Identifies one zone of the city (D1). Zones are numbered row by row from the south-west
/// corner (see `ZoneLayout`).
public struct ZoneID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int
    public init(_ index: Int) { self.index = index }
    public static func < (a: ZoneID, b: ZoneID) -> Bool { a.index < b.index }
    public var description: String { "zone \(index)" }
}

/// A rectangular city divided into zones (D1) by a `ZoneLayout`: squares or hexagons of a stated area.
///
/// Invariant: `width > 0`, `height > 0`, at least one zone; a position is in the city exactly when it is
/// finite and inside one of the zones (whole-zone layouts leave out the edge strips no whole zone fits),
/// and then it lies in exactly one zone.
///
/// ```swift
/// let squares = try CityGeometry(width: 10_000, height: 10_000, zoneArea: 2_000_000)   // 7 × 7 whole 2 km² squares
/// let hexes = try CityGeometry(width: 10_000, height: 10_000, zoneShape: .hexagon, zoneArea: 2_000_000)
/// ```
public struct CityGeometry: Sendable, Equatable {
    /// City extent east–west, metres.
    public let width: Double
    /// City extent south–north, metres.
    public let height: Double
    /// The zones.
    public let layout: ZoneLayout

    /// A city of `width × height` metres cut by `layout`.
    public init(layout: ZoneLayout) {
        self.width = layout.width
        self.height = layout.height
        self.layout = layout
    }

    /// A city of `width × height` metres with whole zones of the given shape and area (TAXInseconds: 2 km²).
    /// - Throws: `DispatchError.invalidConfiguration` when a size is not finite and positive or no zone fits.
    public init(width: Double, height: Double, zoneShape: ZoneLayout.Shape = .square, zoneArea: Double) throws(DispatchError) {
        self.init(layout: try ZoneLayout(shape: zoneShape, zoneArea: zoneArea, width: width, height: height))
    }

    /// A city of `width × height` metres with whole zones of side (square) or edge (hexagon) `zoneSide` metres.
    /// - Throws: `DispatchError.invalidConfiguration` when a size is not finite and positive or no zone fits.
    public init(width: Double, height: Double, zoneShape: ZoneLayout.Shape = .square, zoneSide: Double) throws(DispatchError) {
        self.init(layout: try ZoneLayout(shape: zoneShape, side: zoneSide, width: width, height: height))
    }

    /// Shape of the zones.
    public var zoneShape: ZoneLayout.Shape { layout.shape }
    /// Side of a square zone, or edge of a hexagonal one, metres.
    public var zoneSide: Double { layout.side }
    /// Area of a zone, m².
    public var zoneArea: Double { layout.zoneArea }
    /// Number of zone columns (west → east; hexagons in an even row).
    public var columns: Int { layout.columns }
    /// Number of zone rows (south → north).
    public var rows: Int { layout.rows }
    /// Number of zones.
    public var zoneCount: Int { layout.zoneCount }

    /// Whether `position` is finite and inside one of the zones.
    /// - Complexity: O(1).
    @inlinable
    public func contains(_ position: Position) -> Bool {
        layout.contains(position)
    }

    /// The zone that contains `position`.
    /// - Throws: `DispatchError.positionOutsideCity` for non-finite positions and positions outside every zone.
    /// - Complexity: O(1), no allocation.
    @inlinable @inline(__always)
    public func zone(of position: Position) throws(DispatchError) -> ZoneID {
        guard let index = layout.zoneIndex(at: position) else { throw .positionOutsideCity(position) }
        return ZoneID(index)
    }

    /// The zone of `position`, once `other` is known to be in the city too (a request's origin and
    /// destination), checked in that order: the error names the first outside. One read of the geometry for
    /// the two, where two `zone(of:)` calls copied it out of the core twice.
    /// - Throws: `DispatchError.positionOutsideCity`, as `zone(of:)`.
    @inlinable @inline(__always)
    public func zone(of position: Position, alsoContaining other: Position) throws(DispatchError) -> ZoneID {
        guard let zone = layout.zoneIndex(at: position) else { throw .positionOutsideCity(position) }
        guard layout.contains(other) else { throw .positionOutsideCity(other) }
        return ZoneID(zone)
    }

    /// Zone index of a position the core already validated (every stored taxi position is inside a zone).
    @inlinable @inline(__always)
    func unsafeZoneIndex(_ position: Position) -> Int { layout.zoneIndex(at: position) ?? 0 }

    /// Side of the closest-taxi index's cells by default: the side of a square of the zone's area, at most 1 km.
    var defaultIndexCellSide: Double { min(zoneArea.squareRoot(), 1000) }

    /// The centre of a zone.
    public func centre(of zone: ZoneID) -> Position { layout.centre(of: zone.index) }

    /// The corners of a zone, counter-clockwise.
    public func outline(of zone: ZoneID) -> [Position] { layout.outline(of: zone.index) }
}
