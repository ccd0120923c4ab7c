import DispatchCore

extension Scenario {
    /// `city` — a rectangle `[0, width_km] × [0, height_km]` cut into whole square or hexagonal zones (D1);
    /// the city is the area the whole zones cover (`fit` says how they are laid).
    public struct City: Sendable, Equatable, Encodable {
        /// `width_km` — east–west extent in km. Required, > 0.
        public var widthKm: Double
        /// `height_km` — north–south extent in km. Required, > 0.
        public var heightKm: Double
        /// `zone` — shape and size of the zones, each with one taxi queue (D1). Required.
        public var zone: Zone
        /// `fit` — `clip` (default): the rectangle clipped to the whole zones that fit it; `equal-area`: a block of
        /// whole zones serving the same area whatever their shape, demand and taxis scaled to it (`CityFit`).
        public var fit: Scenario.CityFit = .clip
        /// `metric` — distance between two points: `manhattan` (|dx| + |dy|) or `euclidean`. Default `manhattan`.
        public var metric: Metric
        /// `detour_factor` — road distance = metric distance × this factor. Number >= 1, default 1.
        public var detourFactor: Double
        /// `speed_kmh` — base driving speed in km/h. Number > 0, default 30.
        public var speedKmh: Double
        /// `speed_factor_by_hour` — 24 multipliers of `speed_kmh`, one per hour of the day (index 0 = 00:00–01:00),
        /// the traffic profile. Each > 0, default all 1.
        public var speedFactorByHour: [Double]
        /// `hotspots` — places that attract origins and destinations. Optional, default none.
        public var hotspots: [Hotspot]
        /// `uniform_weight` — weight of "anywhere uniformly in the city" when drawing an origin or a destination,
        /// next to the hotspots' weights. Number >= 0, default 1. Origin weights (this plus every
        /// `origin_weight`) must have a positive sum, and so must destination weights.
        public var uniformWeight: Double
        /// `projection` — where the city lies on the Earth, for trip files with latitude/longitude columns.
        /// Optional, default none (the city is a plane in metres; lat/lon columns are then an error).
        public var projection: Projection? = nil

        /// The dispatch core's map: the rectangle in metres cut into this city's whole zones.
        /// - Throws: `DispatchError.invalidConfiguration` when no whole zone fits (a loaded scenario always fits).
        public func geometry() throws -> CityGeometry {
            CityGeometry(layout: try Self.layout(zone: zone, fit: fit, widthKm: widthKm, heightKm: heightKm).layout)
        }

        /// Driving speed in km/h during hour `hour` (0–23) of the day.
        public func speedKmh(atHour hour: Int) -> Double { speedKmh * speedFactorByHour[hour % 24] }

        enum CodingKeys: String, ScenarioKeys {
            case widthKm = "width_km", heightKm = "height_km", zone, fit, metric
            case detourFactor = "detour_factor", speedKmh = "speed_kmh"
            case speedFactorByHour = "speed_factor_by_hour", hotspots, uniformWeight = "uniform_weight", projection
        }
    }

    /// `city.metric` values.
    public enum Metric: String, CaseIterable, Sendable, Encodable {
        case manhattan, euclidean
    }

    /// `city.zone` — the zones, each with one taxi queue (D1): their `shape` and their size (exactly one of
    /// `side_km` and `area_km2`). Zones are whole: every zone has exactly the stated area and the city is
    /// clipped to the zones that fit (see `ZoneLayout`).
    public struct Zone: Sendable, Equatable, Encodable {
        /// `shape` — `square` (default) or `hexagon`.
        public var shape: ZoneShape
        /// `side_km` — side of a square zone, or edge of a hexagonal one, in km; or `area_km2` — a zone's
        /// area in km² (TAXInseconds: 2). Exactly one is required; at least one whole zone must fit the city.
        /// Stored as the side; `areaKm2` derives the area.
        public var sideKm: Double
        /// Area of one zone in km².
        public var areaKm2: Double { shape == .hexagon ? 1.5 * 3.0.squareRoot() * sideKm * sideKm : sideKm * sideKm }

        public init(shape: ZoneShape = .square, sideKm: Double) {
            self.shape = shape
            self.sideKm = sideKm
        }

        enum CodingKeys: String, ScenarioKeys {
            case shape, sideKm = "side_km", areaKm2 = "area_km2"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(shape.rawValue, forKey: .shape)
            try container.encode(sideKm, forKey: .sideKm)
        }
    }

    /// `city.zone.shape` values.
    public enum ZoneShape: String, CaseIterable, Sendable, Encodable {
        case square, hexagon

        /// The dispatch core's shape (whole zones).
        public var layoutShape: ZoneLayout.Shape { self == .hexagon ? .hexagon : .square }
    }

    /// `city.hotspots[i]` — a disc that draws origins and destinations, like a station or an airport.
    public struct Hotspot: Sendable, Equatable, Encodable {
        /// `name` — label in reports. Required, unique among the hotspots.
        public var name: String
        /// `x_km` — centre, km from the west edge. Required, in [0, width_km] and inside a whole zone.
        public var xKm: Double
        /// `y_km` — centre, km from the south edge. Required, in [0, height_km].
        public var yKm: Double
        /// `radius_km` — points are drawn uniformly in the part of this disc inside the city (points outside are drawn again). Number > 0, default 0.5.
        public var radiusKm: Double
        /// `origin_weight` — relative weight as a request origin. Number >= 0, default 1.
        public var originWeight: Double
        /// `destination_weight` — relative weight as a destination. Number >= 0, default 1.
        public var destinationWeight: Double

        enum CodingKeys: String, ScenarioKeys {
            case name, xKm = "x_km", yKm = "y_km", radiusKm = "radius_km"
            case originWeight = "origin_weight", destinationWeight = "destination_weight"
        }
    }
}

// MARK: - Decoding

extension Scenario.City {
    /// The zones' extent in the stated rectangle's coordinates, for error messages: "x 0–9.9 km, y 0–9.9 km".
    static func servedAreaText(_ layout: ZoneLayout, _ offset: Position) -> String {
        let b = layout.bounds
        return "zones span x \(format((b.minX - offset.x) / 1000))–\(format((b.maxX - offset.x) / 1000)) km, "
            + "y \(format((b.minY - offset.y) / 1000))–\(format((b.maxY - offset.y) / 1000)) km"
    }

    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let width = try map.double(.widthKm, .positive)
        let height = try map.double(.heightKm, .positive)
        let fit: Scenario.CityFit = try map.choice(.fit, default: .clip)
        let zone = try map.required(.zone) { (r) throws(ScenarioError) in
            try Scenario.Zone.read(r, fit: fit, widthKm: width, heightKm: height)
        }
        let fitted = try? Self.layout(zone: zone, fit: fit, widthKm: width, heightKm: height)
        var names: Set<String> = []
        let hotspots = try map.optional(.hotspots, default: []) { (r) throws(ScenarioError) -> [Scenario.Hotspot] in
            var hotspots: [Scenario.Hotspot] = []
            for element in try r.sequence() {
                let hotspot = try Scenario.Hotspot.read(element, widthKm: width, heightKm: height)
                if let (layout, offset) = fitted, layout.zoneIndex(
                    at: Position(x: hotspot.xKm * 1000 + offset.x, y: hotspot.yKm * 1000 + offset.y)) == nil {
                    throw element.error("hotspot '\(hotspot.name)' lies outside every whole zone (the city is "
                        + "\(fit == .clip ? "clipped" : "fitted") to whole \(zone.shape.rawValue) zones: \(Self.servedAreaText(layout, offset)))")
                }
                guard names.insert(hotspot.name).inserted else {
                    throw element.error("duplicate hotspot name '\(hotspot.name)'")
                }
                hotspots.append(hotspot)
            }
            return hotspots
        }
        let uniform = try map.double(.uniformWeight, default: 1, .nonNegative)
        if uniform + hotspots.map(\.originWeight).reduce(0, +) <= 0 {
            throw map.error(at: .uniformWeight, "origin weights (uniform_weight + every origin_weight) must have a positive sum")
        }
        if uniform + hotspots.map(\.destinationWeight).reduce(0, +) <= 0 {
            throw map.error(at: .uniformWeight,
                            "destination weights (uniform_weight + every destination_weight) must have a positive sum")
        }
        return Self(
            widthKm: width, heightKm: height, zone: zone, fit: fit,
            metric: try map.choice(.metric, default: .manhattan),
            detourFactor: try map.double(.detourFactor, default: 1, .atLeast(1)),
            speedKmh: try map.double(.speedKmh, default: 30, .positive),
            speedFactorByHour: try map.hourly(.speedFactorByHour, .positive),
            hotspots: hotspots, uniformWeight: uniform,
            projection: try map.optional(.projection) { (r) throws(ScenarioError) in try Projection.read(r) })
    }
}

extension Scenario.Zone {
    static func read(_ reader: ScenarioReader, fit: Scenario.CityFit, widthKm: Double, heightKm: Double) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let shape: Scenario.ZoneShape = try map.choice(.shape, default: .square)
        let side: Double
        switch (map.has(.sideKm), map.has(.areaKm2)) {
        case (true, false): side = try map.double(.sideKm, .positive)
        case (false, true):
            let area = try map.double(.areaKm2, .positive)
            side = shape == .hexagon ? (2 * area / (3 * 3.0.squareRoot())).squareRoot() : area.squareRoot()
        case (true, true): throw reader.error("give exactly one of side_km and area_km2, not both")
        case (false, false): throw reader.error("missing zone size: give exactly one of side_km and area_km2")
        }
        do {
            _ = try Scenario.City.layout(zone: Self(shape: shape, sideKm: side), fit: fit, widthKm: widthKm, heightKm: heightKm)
        } catch {
            let key: CodingKeys = map.has(.sideKm) ? .sideKm : .areaKm2
            throw map.error(at: key, "no whole \(shape.rawValue) zone of side \(format(side)) km fits the \(format(widthKm)) × \(format(heightKm)) km city")
        }
        return Self(shape: shape, sideKm: side)
    }
}

extension Scenario.Hotspot {
    static func read(_ reader: ScenarioReader, widthKm: Double, heightKm: Double) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        return Self(
            name: try map.string(.name),
            xKm: try map.double(.xKm, .closed(0, widthKm)),
            yKm: try map.double(.yKm, .closed(0, heightKm)),
            radiusKm: try map.double(.radiusKm, default: 0.5, .positive),
            originWeight: try map.double(.originWeight, default: 1, .nonNegative),
            destinationWeight: try map.double(.destinationWeight, default: 1, .nonNegative))
    }
}
