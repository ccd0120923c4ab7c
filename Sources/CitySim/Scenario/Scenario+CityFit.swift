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
    }
}

extension Scenario.City {
    /// The zones of this city and where the stated rectangle's origin lies in them (metres): the
    /// stated rectangle under `clip`; under `equal-area` the bounding box of the fitted block.
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
        case .equalArea:
            // As many rows and columns as whole squares of the zone's area fit (the relative slack as in `ZoneLayout`).
            let square = (zone.areaKm2 * 1e6).squareRoot(), slack = 1 + 1e-9
            let columns = Int((width * slack / square).rounded(.down)), rows = Int((height * slack / square).rounded(.down))
            guard columns >= 1, rows >= 1 else {
                throw .invalidConfiguration("a square of the zone's area does not fit a \(format(widthKm)) × \(format(heightKm)) km city")
            }
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

    /// Served area over the stated rectangle's area under `equal-area` (demand and taxis scale by it); 1 under `clip`.
    var densityScale: Double {
        guard fit == .equalArea, let layout = try? geometry().layout else { return 1 }
        return layout.servedArea / (widthKm * heightKm * 1e6)
    }

    /// The centre of a hotspot in the city's coordinates (metres from the south-west corner of the zones'
    /// rectangle): its stated place, moved with the rectangle under `equal-area`.
    public func centre(of hotspot: Scenario.Hotspot) -> Position {
        let offset = rectangleOrigin
        return Position(x: hotspot.xKm * 1000 + offset.x, y: hotspot.yKm * 1000 + offset.y)
    }
}
