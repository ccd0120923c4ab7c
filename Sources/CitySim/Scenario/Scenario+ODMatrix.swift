import Foundation

extension Scenario {
    /// `demand.od_matrix` — a demand model fitted from a trace (`citysim fit-demand`): requests arrive as a
    /// Poisson process with the file's `rate_per_hour` × `demand.scale`; each request's (origin zone,
    /// destination zone) is drawn from its hour's matrix (`ODMatrix`), and its points uniformly inside
    /// those zones (`ZonePoints`), from the `places` stream. The value is the file's path, relative to the
    /// scenario file unless absolute (`od_matrix: trips/nyc-sample-od.json`); it is read and checked against the city's
    /// zone count when the scenario is loaded. The long form `{ file: …, model_hash: … }` (the canonical JSON's)
    /// also checks that the file's model still has that hash (FNV-1a of its compact JSON).
    ///
    /// Demand zones of its own: `zones: { geojson: …, id_property: …, name_property: … }` (the keys and reader
    /// of `city.zone.geojson`) names the zones the matrix was fitted on (`fit-demand --zones`), independent of
    /// the dispatch zones, which may then be anything (hexagons, another GeoJSON file, any size):
    ///
    /// ```yaml
    /// od_matrix: { file: trips/helsinki-sample-od.json, zones: { geojson: zones/helsinki-districts.geojson, id_property: id } }
    /// ```
    ///
    /// The matrix's `zone_ids` must each be an ID of that file (without `zone_ids`, its zone count must be the
    /// file's and zone `i` is the file's `i`-th zone). Points are drawn in the demand zone's polygons (as the
    /// network places them: the road network's plane) and snapped to a road of that zone; a request with a
    /// point outside every dispatch zone is not requested, as a trip replay with `outside_city: drop` skips a
    /// row whose point is outside the city — the dispatcher does not serve it. So the served share of the
    /// fitted demand follows the dispatch zones' cover (under `city.fit: equal-area`, the demand per km²
    /// served stays the matrix's, as the taxis scale with the served area).
    ///
    /// Invariant: `model` passed `ODMatrix.read`; with `zones`, `demandZone[i]` is the zone of `zones` that
    /// matrix zone `i` names, for every `i < model.zones`; without, `demandZone` is empty.
    public struct FittedDemand: Sendable, Equatable, Encodable {
        /// The path as written in the scenario.
        public var file: String
        /// The model read from it.
        public var model: ODMatrix
        /// `zones` — the demand zones, when the matrix has its own. Default: the city's dispatch zones.
        public var zones: ZonePolygonsSpec? = nil
        /// Not a key: matrix zone index → zone index of `zones`.
        public var demandZone: [Int] = []

        /// Encodes the path and a hash of the model (and the demand zones' file, when given), so a changed
        /// file changes the scenario's hash.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(file, forKey: .file)
            try container.encode(modelHash, forKey: .modelHash)
            try container.encodeIfPresent(zones, forKey: .zones)
        }

        /// FNV-1a of the model's compact JSON, 16 hex digits.
        var modelHash: String { TripFileReader.fnv1a([UInt8]((try? model.json()) ?? Data())) }

        enum Keys: String, ScenarioKeys { case file, modelHash = "model_hash", zones }
        enum ZoneKeys: String, ScenarioKeys { case geojson, idProperty = "id_property", nameProperty = "name_property" }

        static func read(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> Self {
            var file: String, pinned: String? = nil, at = reader, zonesReader: ScenarioReader? = nil
            if case .mapping = reader.node.value {
                let map = try reader.mapping(Keys.self)
                file = try map.string(.file)
                pinned = try map.optional(.modelHash) { (r) throws(ScenarioError) in try r.string() }
                at = map.child(.file) ?? reader
                zonesReader = map.child(.zones)
            } else {
                file = try reader.string()
            }
            let path = Scenario.path(of: file, besides: reader.file)
            var fitted: Self
            if let zonesReader {
                let zones = try readZones(zonesReader, city: city)
                let model: ODMatrix
                do { model = try ODMatrix.read(path: path) } catch { throw at.error("\(error)") }
                fitted = Self(file: file, model: model, zones: zones,
                              demandZone: try demandZones(of: model, path: path, in: zones, at: zonesReader))
            } else {
                let zones = (try? city.geometry().zoneCount) ?? 0
                do {
                    fitted = Self(file: file, model: try ODMatrix.read(path: path, zones: zones))
                } catch {
                    throw at.error("\(error)")
                }
            }
            if let pinned, pinned != fitted.modelHash {
                throw reader.error("\(file) has changed: its model hashes to \(fitted.modelHash), not \(pinned)")
            }
            return fitted
        }

        /// `od_matrix.zones`: the demand zones' GeoJSON file, clipped to the city's rectangle as the city's own
        /// GeoJSON zones would be, in the zones' plane (moved by `rectangleOrigin` under `fit: equal-area` or `cover`).
        static func readZones(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> ZonePolygonsSpec {
            try ZonePolygonsSpec.read(reader.mapping(ZoneKeys.self), keys: (.geojson, .idProperty, .nameProperty), file: reader.file,
                                      projection: city.geographic, widthKm: city.widthKm, heightKm: city.heightKm,
                                      shift: city.rectangleOrigin)
        }

        /// Matrix zone → demand zone: by `zone_ids`, or by position when the file has none.
        static func demandZones(of model: ODMatrix, path: String, in zones: ZonePolygonsSpec,
                                at reader: ScenarioReader) throws(ScenarioError) -> [Int] {
            guard let ids = model.zoneIDs else {
                guard model.zones == zones.ids.count else {
                    throw reader.error("\(path) has \(model.zones) zones and no zone_ids; \(zones.file) has \(zones.ids.count) zones "
                                       + "(refit with fit-demand --zones to record their IDs)")
                }
                return Array(0..<model.zones)
            }
            var indices: [Int] = []
            for id in ids {
                guard let zone = zones.zone(withID: id) else {
                    throw reader.error("\(path): zone_ids has '\(id)', which is not a zone ID of \(zones.file) "
                                       + "(its IDs: \(zones.ids.prefix(12).joined(separator: ", "))\(zones.ids.count > 12 ? ", …" : ""))")
                }
                indices.append(zone)
            }
            return indices
        }
    }
}
