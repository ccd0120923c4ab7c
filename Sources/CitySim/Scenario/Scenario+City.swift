extension Scenario {
    /// `city` — a rectangle `[0, width_km] × [0, height_km]` cut into square zones (D1).
    public struct City: Sendable, Equatable, Encodable {
        /// `width_km` — east–west extent in km. Required, > 0.
        public var widthKm: Double
        /// `height_km` — north–south extent in km. Required, > 0.
        public var heightKm: Double
        /// `zone` — size of the square zones, each with one taxi queue (D1). Required.
        public var zone: Zone
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

        /// Driving speed in km/h during hour `hour` (0–23) of the day.
        public func speedKmh(atHour hour: Int) -> Double { speedKmh * speedFactorByHour[hour % 24] }

        enum CodingKeys: String, ScenarioKeys {
            case widthKm = "width_km", heightKm = "height_km", zone, metric
            case detourFactor = "detour_factor", speedKmh = "speed_kmh"
            case speedFactorByHour = "speed_factor_by_hour", hotspots, uniformWeight = "uniform_weight"
        }
    }

    /// `city.metric` values.
    public enum Metric: String, CaseIterable, Sendable, Encodable {
        case manhattan, euclidean
    }

    /// `city.zone` — square zones; give exactly one of `side_km` and `area_km2`.
    public struct Zone: Sendable, Equatable, Encodable {
        /// `side_km` — side of a square zone in km, or `area_km2` — its area in km² (TAXInseconds: 2).
        /// Exactly one is required. The side must be > 0 and <= the smaller of the city's width and height.
        /// Stored as the side; `areaKm2` derives the area.
        public var sideKm: Double
        /// Area of one zone in km².
        public var areaKm2: Double { sideKm * sideKm }

        enum CodingKeys: String, ScenarioKeys {
            case sideKm = "side_km", areaKm2 = "area_km2"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sideKm, forKey: .sideKm)
        }
    }

    /// `city.hotspots[i]` — a disc that draws origins and destinations, like a station or an airport.
    public struct Hotspot: Sendable, Equatable, Encodable {
        /// `name` — label in reports. Required, unique among the hotspots.
        public var name: String
        /// `x_km` — centre, km from the west edge. Required, in [0, width_km].
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
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let width = try map.double(.widthKm, .positive)
        let height = try map.double(.heightKm, .positive)
        let zone = try map.required(.zone) { (r) throws(ScenarioError) in
            try Scenario.Zone.read(r, maxSideKm: min(width, height))
        }
        var names: Set<String> = []
        let hotspots = try map.optional(.hotspots, default: []) { (r) throws(ScenarioError) -> [Scenario.Hotspot] in
            var hotspots: [Scenario.Hotspot] = []
            for element in try r.sequence() {
                let hotspot = try Scenario.Hotspot.read(element, widthKm: width, heightKm: height)
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
            widthKm: width, heightKm: height, zone: zone,
            metric: try map.choice(.metric, default: .manhattan),
            detourFactor: try map.double(.detourFactor, default: 1, .atLeast(1)),
            speedKmh: try map.double(.speedKmh, default: 30, .positive),
            speedFactorByHour: try map.hourly(.speedFactorByHour, .positive),
            hotspots: hotspots, uniformWeight: uniform)
    }
}

extension Scenario.Zone {
    static func read(_ reader: ScenarioReader, maxSideKm: Double) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let side: Double
        switch (map.has(.sideKm), map.has(.areaKm2)) {
        case (true, false): side = try map.double(.sideKm, .positive)
        case (false, true): side = try map.double(.areaKm2, .positive).squareRoot()
        case (true, true): throw reader.error("give exactly one of side_km and area_km2, not both")
        case (false, false): throw reader.error("missing zone size: give exactly one of side_km and area_km2")
        }
        guard side <= maxSideKm * (1 + 1e-12) else {
            let key: CodingKeys = map.has(.sideKm) ? .sideKm : .areaKm2
            throw map.error(at: key, "zone side \(format(side)) km exceeds the city's smaller side \(format(maxSideKm)) km")
        }
        return Self(sideKm: side)
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
