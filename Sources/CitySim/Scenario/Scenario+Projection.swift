import DispatchCore

extension Scenario.City {
    /// `city.projection` — where the city's rectangle lies on the Earth: its south-west corner, so that
    /// latitude/longitude in trip files become metres east and north of it (`EquirectangularProjection`,
    /// true east–west at the rectangle's middle latitude, the formulas of `RoadNetwork.LocalProjection`).
    ///
    /// ```yaml
    /// city: { width_km: 10, height_km: 10, zone: { side_km: 1.4 }, projection: { south_west: [40.70, -74.02] } }
    /// ```
    public struct Projection: Sendable, Equatable, Encodable {
        /// `south_west` — `[latitude, longitude]` of the rectangle's (0, 0) corner, degrees. Required;
        /// latitude in [-85, 85], longitude in [-180, 180].
        public var southWest: [Double]

        enum CodingKeys: String, ScenarioKeys { case southWest = "south_west" }

        /// The projection of a city `heightKm` tall.
        public func projection(heightKm: Double) -> EquirectangularProjection {
            EquirectangularProjection(southWestLatitude: southWest[0], southWestLongitude: southWest[1],
                                      cityHeightMetres: heightKm * 1000)
        }

        static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
            let map = try reader.mapping(CodingKeys.self)
            let corner = try map.required(.southWest) { (r) throws(ScenarioError) -> [Double] in
                let elements = try r.sequence()
                guard elements.count == 2 else {
                    throw r.error("expected [latitude, longitude], got \(elements.count) numbers")
                }
                return [try elements[0].double(.closed(-85, 85)), try elements[1].double(.closed(-180, 180))]
            }
            return Self(southWest: corner)
        }
    }

    /// Where the stated rectangle's (0, 0) corner lies in the zones' plane, metres: (0, 0) under `fit: clip`,
    /// the fitted block's offset under `equal-area` (as for hotspots).
    public var rectangleOrigin: Position {
        // Clipped and GeoJSON zones lie in the rectangle itself: no layout to build (polygons are costly to lay).
        guard fit != .clip, zone.polygons == nil else { return Position(x: 0, y: 0) }
        return (try? Self.layout(zone: zone, fit: fit, widthKm: widthKm, heightKm: heightKm).offset) ?? Position(x: 0, y: 0)
    }
}
