import DispatchCore
import Foundation
import RoadNetwork

extension Scenario {
    /// `city.zone.geojson` and its companions — zones read from a GeoJSON file instead of laid as squares or
    /// hexagons: real taxi zones (NYC TLC's `taxi_zones`, a city's districts). Each distinct feature ID is one
    /// zone with one queue; zones are numbered in the order their ID first appears in the file.
    ///
    /// The polygons are projected with the road network's projection and clipped to the city (the network's
    /// bounding box), so a city-wide zone file can be used with an extract of part of the city. A point in
    /// no polygon is outside the city.
    ///
    /// Invariant: `zones` holds the file's zones as loaded when the scenario was read: at least one, each
    /// keeping some area inside the city; `ids[i]` and `names[i]` belong to zone `i`.
    public struct ZonePolygonsSpec: Sendable, Equatable, Encodable {
        /// `geojson` — the FeatureCollection, relative to the scenario file (or absolute). Stored resolved.
        public var file: String
        /// `id_property` — the feature property that holds the zone ID (e.g. `LocationID`). Default: the
        /// feature's `id` member.
        public var idProperty: String?
        /// `name_property` — the feature property that holds the zone's name, for reports. Optional.
        public var nameProperty: String?
        /// Not keys: the zones, their IDs and names as read.
        public var zones: PolygonZones
        public var ids: [String]
        public var names: [String?]

        enum CodingKeys: String, ScenarioKeys {
            case file = "geojson", idProperty = "id_property", nameProperty = "name_property"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encodeIfPresent(idProperty, forKey: .idProperty)
            try container.encodeIfPresent(nameProperty, forKey: .nameProperty)
        }

        /// The zone whose file ID is `id`, if any.
        public func zone(withID id: String) -> Int? { ids.firstIndex(of: id) }
    }
}

extension Scenario.ZonePolygonsSpec {
    /// Reads `geojson`, `id_property` and `name_property` from the `zone` mapping and loads the zones into
    /// the city `width × height` km of `projection`.
    static func read(_ map: MappingReader<Scenario.Zone.CodingKeys>, file scenarioFile: String,
                     projection: LocalProjection?, widthKm: Double, heightKm: Double) throws(ScenarioError) -> Self {
        for key in [Scenario.Zone.CodingKeys.shape, .sideKm, .areaKm2] where map.has(key) {
            throw map.error(at: key, "does not apply to zones read from GeoJSON; remove it")
        }
        return try read(map, keys: (.geojson, .idProperty, .nameProperty), file: scenarioFile, projection: projection,
                        widthKm: widthKm, heightKm: heightKm)
    }

    /// Reads the keys `keys` name (`geojson`, `id_property`, `name_property`) from any mapping that holds them
    /// (`city.zone`, `demand.od_matrix.zones`) and loads the zones, moved by `shift` after clipping; errors name the
    /// `geojson` key.
    static func read<Key: ScenarioKeys>(_ map: MappingReader<Key>, keys: (geojson: Key, idProperty: Key, nameProperty: Key),
                                        file scenarioFile: String, projection: LocalProjection?, widthKm: Double,
                                        heightKm: Double, shift: Position = Position(x: 0, y: 0)) throws(ScenarioError) -> Self {
        let path = Scenario.RoadNetworkSpec.resolve(try map.string(keys.geojson), against: scenarioFile)
        guard let projection else {
            throw map.error(at: keys.geojson, "GeoJSON zones are in latitude/longitude: the city needs a road_network or a city.projection to place them")
        }
        let idProperty = try map.optional(keys.idProperty, default: nil) { (r) throws(ScenarioError) -> String? in try r.string() }
        let nameProperty = try map.optional(keys.nameProperty, default: nil) { (r) throws(ScenarioError) -> String? in try r.string() }
        do {
            return try load(path: path, idProperty: idProperty, nameProperty: nameProperty, projection: projection,
                            widthKm: widthKm, heightKm: heightKm, shift: shift)
        } catch {
            throw map.error(at: keys.geojson, "\(error)")
        }
    }

    /// Loads the zones of the GeoJSON file at `path` (resolved) into the city `width × height` km of
    /// `projection`, then moved by `shift` (the rectangle's origin in the zones' plane): `city.zone.geojson`'s reader,
    /// also the demand zones of `demand.od_matrix.zones` and `fit-demand --zones`.
    /// - Throws: `ZoneFileError` naming the file and why its zones cannot be used.
    public static func load(path: String, idProperty: String?, nameProperty: String?, projection: LocalProjection,
                            widthKm: Double, heightKm: Double, shift: Position = Position(x: 0, y: 0)) throws(ZoneFileError) -> Self {
        do {
            let file = try GeoJSONZones(contentsOf: path, idProperty: idProperty, nameProperty: nameProperty)
            let zones = try file.polygonZones(in: projection, width: widthKm * 1000, height: heightKm * 1000, shift: shift)
            return Self(file: path, idProperty: idProperty, nameProperty: nameProperty, zones: zones,
                        ids: file.zones.map(\.id), names: file.zones.map(\.name))
        } catch {
            throw ZoneFileError(description: "cannot use the zones of '\(path)': \(error)")
        }
    }
}

/// Why a GeoJSON zone file cannot be used. Invariant: `description` names the file and the reason.
public struct ZoneFileError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
