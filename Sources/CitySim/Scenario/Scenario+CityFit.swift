import DispatchCore

extension Scenario {
    /// `city.fit` values: how whole zones make the city out of the `width_km × height_km` rectangle.
    public enum CityFit: String, CaseIterable, Sendable, Encodable {
        /// The rectangle is clipped to the whole zones of the shape that fit in it, centred; demand and
        /// taxis are as stated. The served area depends on the shape and size (hexagons cannot tile a rectangle).
        case clip
        /// Every shape serves the same area at one zone size: the city is a block of as many rows and columns
        /// of whole zones as whole squares of that area fit the rectangle (hexagons: that many in every row,
        /// odd rows half a hexagon east), centred on the rectangle's centre, which it may overhang by part
        /// of a hexagon. `requests_per_hour` and every shift's `taxis` are stated for the whole rectangle and
        /// scale by served area / rectangle area, so requests and taxis per km² are the scenario's at every
        /// zone shape and size. Hotspots keep their place relative to the rectangle's centre.
        case equalArea = "equal-area"
        /// The rectangle is covered: the city is the smallest block of whole zones (as many in every row; hexagons'
        /// odd rows half a hexagon east) that holds the whole rectangle, centred on it, so zones at the edges
        /// overhang it. Demand and taxis are as stated. Meant for a road network with demand fixed in space
        /// (an OD matrix, a trip file): every layout then keeps every trip of the network's box, so zone shapes
        /// and sizes compare at the same requests and taxis.
        case cover
    }
}

extension Scenario.City {
    /// The zones of this city and where the stated rectangle's origin lies in them (metres): the
    /// stated rectangle under `clip`; under `equal-area` and `cover` the bounding box of the fitted block, centred
    /// on the rectangle.
    /// - Throws: `DispatchError.invalidConfiguration` when no whole zone fits (a loaded scenario always fits).
    static func layout(zone: Scenario.Zone, fit: Scenario.CityFit, widthKm: Double, heightKm: Double)
        throws(DispatchError) -> (layout: ZoneLayout, offset: Position)
    {
        let width = widthKm * 1000, height = heightKm * 1000, side = zone.sideKm * 1000
        if let polygons = zone.polygons {
            return (try ZoneLayout(polygons: polygons.zones, width: width, height: height), Position(x: 0, y: 0))
        }
        switch fit {
        case .clip:
            return (try ZoneLayout(shape: zone.shape.layoutShape, side: side, width: width, height: height), Position(x: 0, y: 0))
        case .equalArea, .cover:
            let (columns, rows) = try blockCounts(zone: zone, fit: fit, width: width, height: height, side: side)
            let blockWidth: Double, blockHeight: Double
            switch zone.shape {
            case .square:
                (blockWidth, blockHeight) = (Double(columns) * side, Double(rows) * side)
            case .hexagon:
                let hexagonWidth = side * 3.0.squareRoot()
                blockWidth = (Double(columns) + (rows > 1 ? 0.5 : 0)) * hexagonWidth
                blockHeight = 2 * side + 1.5 * side * Double(rows - 1)
            }
            let layout = try ZoneLayout(shape: zone.shape.layoutShape, side: side, width: blockWidth, height: blockHeight)
            return (layout, Position(x: (blockWidth - width) / 2, y: (blockHeight - height) / 2))
        }
    }

    /// Rows and columns of the block under `equal-area` (as many as whole squares of the zone's area fit the
    /// rectangle) or `cover` (the fewest whose whole zones hold the rectangle). A block of hexagons fully covers
    /// `[w/2, columns·w] × [side/2, height − side/2]` of itself (w = √3·side, more than one row: the odd rows'
    /// half-hexagon offset and the rows' zigzag edges), or `[0, columns·w]` across with one row.
    private static func blockCounts(zone: Scenario.Zone, fit: Scenario.CityFit, width: Double, height: Double,
                                    side: Double) throws(DispatchError) -> (columns: Int, rows: Int) {
        let slack = 1 + 1e-9  // the relative slack as in `ZoneLayout`
        if fit == .equalArea {
            let square = (zone.areaKm2 * 1e6).squareRoot()
            let columns = Int((width * slack / square).rounded(.down)), rows = Int((height * slack / square).rounded(.down))
            guard columns >= 1, rows >= 1 else {
                throw .invalidConfiguration("a square of the zone's area does not fit a \(format(width / 1000)) × \(format(height / 1000)) km city")
            }
            return (columns, rows)
        }
        switch zone.shape {
        case .square:
            return (max(1, Int((width / slack / side).rounded(.up))), max(1, Int((height / slack / side).rounded(.up))))
        case .hexagon:
            let hexagonWidth = side * 3.0.squareRoot()
            let rows = height / slack <= side ? 1 : Int(((height / slack - side) / (1.5 * side)).rounded(.up)) + 1
            let columns = Int((width / slack / hexagonWidth + (rows > 1 ? 0.5 : 0)).rounded(.up))
            return (max(1, columns), rows)
        }
    }

    /// Served area over the stated rectangle's area under `equal-area` (demand and taxis scale by it); 1 under
    /// `clip` and `cover`.
    var densityScale: Double {
        guard fit == .equalArea, let layout = try? geometry().layout else { return 1 }
        return layout.servedArea / (widthKm * heightKm * 1e6)
    }

    /// The centre of a hotspot in the city's coordinates (metres from the south-west corner of the zones'
    /// rectangle): its stated place, moved with the rectangle under `equal-area` and `cover`.
    public func centre(of hotspot: Scenario.Hotspot) -> Position {
        let offset = rectangleOrigin
        return Position(x: hotspot.xKm * 1000 + offset.x, y: hotspot.yKm * 1000 + offset.y)
    }
}
