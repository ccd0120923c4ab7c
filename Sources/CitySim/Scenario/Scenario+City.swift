import DispatchCore
import RoadNetwork

extension Scenario {
    /// `city` — a rectangle `[0, width_km] × [0, height_km]` cut into whole square or hexagonal zones (D1);
    /// the city is the area the whole zones cover (`fit` says how they are laid). With `road_network` the
    /// rectangle is the network's projected bounding box and travel follows its roads.
    public struct City: Sendable, Equatable, Encodable {
        /// `road_network` — a real road network (`RoadNetworkSpec`). Optional, default none (the textbook
        /// rectangle). When given, `width_km`, `height_km`, `metric`, `detour_factor`, `speed_kmh` and
        /// `speed_factor_by_hour` are errors, and hotspots may be placed by `lat`/`lon`.
        public var roadNetwork: RoadNetworkSpec?
        /// Not a key: the city's latitude/longitude ↔ metres, when it has one: the road network's projection,
        /// or the one `projection` states. Hotspots, GeoJSON zones and trip files in lat/lon go through it.
        /// Its metres are the stated rectangle's: add `rectangleOrigin` for the zones' plane the simulation
        /// runs in (they differ under `fit: equal-area` and `cover`).
        public var geographic: LocalProjection?
        /// `width_km` — east–west extent in km. Required, > 0. With `road_network`: not a key, the largest
        /// x of the network's nodes (metres east of its westernmost drivable node) in km.
        public var widthKm: Double
        /// `height_km` — north–south extent in km. Required, > 0. With `road_network`: not a key, the largest
        /// y of the network's nodes (metres north of its southernmost drivable node) in km.
        public var heightKm: Double
        /// `zone` — shape and size of the zones, each with one taxi queue (D1). Required.
        public var zone: Zone
        /// `fit` — `clip` (default): the rectangle clipped to the whole zones that fit it; `equal-area`: a block of
        /// whole zones serving the same area whatever their shape, demand and taxis scaled to it; `cover`: the
        /// smallest block of whole zones holding the whole rectangle (`CityFit`).
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
            case speedFactorByHour = "speed_factor_by_hour", hotspots, uniformWeight = "uniform_weight"
            case roadNetwork = "road_network", projection
        }

        /// The keys of the file: a road city leaves out the rectangle and its travel model (they are derived).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let roadNetwork {
                try container.encode(roadNetwork, forKey: .roadNetwork)
            } else {
                try container.encode(widthKm, forKey: .widthKm)
                try container.encode(heightKm, forKey: .heightKm)
                try container.encode(metric, forKey: .metric)
                try container.encode(detourFactor, forKey: .detourFactor)
                try container.encode(speedKmh, forKey: .speedKmh)
                try container.encode(speedFactorByHour, forKey: .speedFactorByHour)
            }
            try container.encode(zone, forKey: .zone)
            try container.encode(fit, forKey: .fit)
            try container.encode(hotspots, forKey: .hotspots)
            try container.encode(uniformWeight, forKey: .uniformWeight)
            try container.encodeIfPresent(projection, forKey: .projection)
        }
    }

    /// `city.metric` values.
    public enum Metric: String, CaseIterable, Sendable, Encodable {
        case manhattan, euclidean
    }

    /// `city.zone` — the zones, each with one taxi queue (D1): their `shape` and their size (exactly one of
    /// `side_km` and `area_km2`). Zones are whole: every zone has exactly the stated area and the city is
    /// clipped to the zones that fit (see `ZoneLayout`). Or, in a road city, polygons from a GeoJSON file
    /// (`geojson`, `id_property`, `name_property`: `ZonePolygonsSpec`).
    public struct Zone: Sendable, Equatable, Encodable {
        /// The zones read from GeoJSON, when given; `shape` and `sideKm` then describe the mean zone.
        public var polygons: ZonePolygonsSpec?
        /// `shape` — `square` (default) or `hexagon`.
        public var shape: ZoneShape
        /// `side_km` — side of a square zone, or edge of a hexagonal one, in km; or `area_km2` — a zone's
        /// area in km² (TAXInseconds: 2). Exactly one is required; at least one whole zone must fit the city.
        /// Stored as the side; `areaKm2` derives the area.
        public var sideKm: Double
        /// Area of one zone in km² (GeoJSON zones: the mean zone's).
        public var areaKm2: Double { shape == .hexagon ? 1.5 * 3.0.squareRoot() * sideKm * sideKm : sideKm * sideKm }

        /// Zones read from GeoJSON: `sideKm` is the square root of the mean zone's area.
        public init(polygons: ZonePolygonsSpec) {
            self.polygons = polygons
            shape = .square
            sideKm = (polygons.zones.areas.reduce(0, +) / Double(polygons.zones.zones.count)).squareRoot() / 1000
        }

        public init(shape: ZoneShape = .square, sideKm: Double) {
            self.shape = shape
            self.sideKm = sideKm
        }

        enum CodingKeys: String, ScenarioKeys {
            case shape, sideKm = "side_km", areaKm2 = "area_km2"
            case geojson, idProperty = "id_property", nameProperty = "name_property"
        }

        public func encode(to encoder: any Encoder) throws {
            if let polygons { return try polygons.encode(to: encoder) }
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
        /// `x_km` — centre, km from the west edge. Required (unless `lat`/`lon` are given), in [0, width_km]
        /// and inside a whole zone.
        public var xKm: Double
        /// `y_km` — centre, km from the south edge. Required (unless `lat`/`lon` are given), in [0, height_km].
        public var yKm: Double
        /// `lat`, `lon` — centre in degrees (WGS 84), instead of `x_km`/`y_km`; only in a city with a
        /// `road_network`, whose projection turns them into `x_km`/`y_km`. Both or neither.
        public var latitude: Double?, longitude: Double?
        /// `radius_km` — points are drawn uniformly in the part of this disc inside the city (points outside are drawn again). Number > 0, default 0.5.
        public var radiusKm: Double
        /// `origin_weight` — relative weight as a request origin. Number >= 0, default 1.
        public var originWeight: Double
        /// `destination_weight` — relative weight as a destination. Number >= 0, default 1.
        public var destinationWeight: Double

        enum CodingKeys: String, ScenarioKeys {
            case name, xKm = "x_km", yKm = "y_km", latitude = "lat", longitude = "lon", radiusKm = "radius_km"
            case originWeight = "origin_weight", destinationWeight = "destination_weight"
        }

        /// The keys of the file: the centre as it was given (`lat`/`lon`, or `x_km`/`y_km`).
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            if let latitude, let longitude {
                try container.encode(latitude, forKey: .latitude)
                try container.encode(longitude, forKey: .longitude)
            } else {
                try container.encode(xKm, forKey: .xKm)
                try container.encode(yKm, forKey: .yKm)
            }
            try container.encode(radiusKm, forKey: .radiusKm)
            try container.encode(originWeight, forKey: .originWeight)
            try container.encode(destinationWeight, forKey: .destinationWeight)
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
        let road = try map.optional(.roadNetwork) { (r) throws(ScenarioError) in try Scenario.RoadNetworkSpec.read(r) }
        let width: Double, height: Double
        if let road {
            for key in Scenario.RoadNetworkSpec.rectangleKeys where map.has(key) {
                throw map.error(at: key, "does not apply to a city with a road_network (the city is the network's "
                                + "bounding box and travel follows its roads); remove it")
            }
            (width, height) = Self.extentKm(of: road.graph)
        } else {
            width = try map.double(.widthKm, .positive)
            height = try map.double(.heightKm, .positive)
        }
        let stated = try map.optional(.projection) { (r) throws(ScenarioError) in try Projection.read(r) }
        let projection = road?.graph.projection ?? stated.map { LocalProjection($0.projection(heightKm: height)) }
        let fit: Scenario.CityFit = try map.choice(.fit, default: .clip)
        let zone = try map.required(.zone) { (r) throws(ScenarioError) in
            try Scenario.Zone.read(r, fit: fit, widthKm: width, heightKm: height, projection: projection)
        }
        let fitted = try? Self.layout(zone: zone, fit: fit, widthKm: width, heightKm: height)
        var names: Set<String> = []
        let hotspots = try map.optional(.hotspots, default: []) { (r) throws(ScenarioError) -> [Scenario.Hotspot] in
            var hotspots: [Scenario.Hotspot] = []
            for element in try r.sequence() {
                let hotspot = try Scenario.Hotspot.read(element, widthKm: width, heightKm: height, projection: projection)
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
        // A road city's trip-length band (`min_trip_km`, `max_trip_km`) is measured in a straight line.
        let metric: Scenario.Metric = try road == nil ? map.choice(.metric, default: .manhattan) : .euclidean
        return Self(
            roadNetwork: road?.spec, geographic: projection,
            widthKm: width, heightKm: height, zone: zone, fit: fit,
            metric: metric,
            detourFactor: try map.double(.detourFactor, default: 1, .atLeast(1)),
            speedKmh: try map.double(.speedKmh, default: 30, .positive),
            speedFactorByHour: try map.hourly(.speedFactorByHour, .positive),
            hotspots: hotspots, uniformWeight: uniform, projection: stated)
    }
}

extension Scenario.Zone {
    static func read(_ reader: ScenarioReader, fit: Scenario.CityFit, widthKm: Double, heightKm: Double,
                     projection: LocalProjection?) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        if map.has(.geojson) {
            guard fit == .clip else {
                throw reader.error("fit: \(fit.rawValue) lays squares and hexagons; GeoJSON zones are taken as given (use fit: clip)")
            }
            return Self(polygons: try Scenario.ZonePolygonsSpec.read(map, file: reader.file, projection: projection,
                                                                      widthKm: widthKm, heightKm: heightKm))
        }
        for key in [CodingKeys.idProperty, .nameProperty] where map.has(key) {
            throw map.error(at: key, "applies only to zones read from a geojson file")
        }
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

extension Scenario.City {
    /// The city rectangle of a road network, km: its nodes' largest x and y in the network's projection.
    static func extentKm(of graph: RoadGraph) -> (width: Double, height: Double) {
        var x = 0.0, y = 0.0
        for p in graph.positions { x = max(x, p.x); y = max(y, p.y) }
        return (x / 1000, y / 1000)
    }
}

extension Scenario.Hotspot {
    static func read(_ reader: ScenarioReader, widthKm: Double, heightKm: Double,
                     projection: LocalProjection?) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let name = try map.string(.name)
        var latitude: Double?, longitude: Double?
        var xKm: Double, yKm: Double
        if map.has(.latitude) || map.has(.longitude) {
            guard let projection else {
                throw map.error(at: map.has(.latitude) ? .latitude : .longitude,
                                "lat/lon need a city with a road_network or a city.projection to place them; give x_km and y_km")
            }
            for key in [CodingKeys.xKm, .yKm] where map.has(key) {
                throw map.error(at: key, "give either lat and lon or x_km and y_km, not both")
            }
            let lat = try map.double(.latitude, .closed(-90, 90)), lon = try map.double(.longitude, .closed(-180, 180))
            let centre = projection.project(LatLon(latitude: lat, longitude: lon))
            (xKm, yKm) = (centre.x / 1000, centre.y / 1000)
            guard (0...widthKm).contains(xKm), (0...heightKm).contains(yKm) else {
                throw map.error(at: .latitude, "(\(format(lat)), \(format(lon))) lies outside the road network's "
                                + "bounding box (x \(format(xKm)) km of 0–\(format(widthKm)), y \(format(yKm)) km of 0–\(format(heightKm)))")
            }
            (latitude, longitude) = (lat, lon)
        } else {
            xKm = try map.double(.xKm, .closed(0, widthKm))
            yKm = try map.double(.yKm, .closed(0, heightKm))
        }
        return Self(
            name: name, xKm: xKm, yKm: yKm, latitude: latitude, longitude: longitude,
            radiusKm: try map.double(.radiusKm, default: 0.5, .positive),
            originWeight: try map.double(.originWeight, default: 1, .nonNegative),
            destinationWeight: try map.double(.destinationWeight, default: 1, .nonNegative))
    }
}
