import Foundation

extension Scenario {
    /// `demand.od_matrix` — a demand model fitted from a trace (`citysim fit-demand`): requests arrive as a
    /// Poisson process with the file's `rate_per_hour` × `demand.scale`; each request's (origin zone,
    /// destination zone) is drawn from its hour's matrix (`ODMatrix`), and its points uniformly inside
    /// those zones (`ZonePoints`), from the `places` stream. The value is the file's path, relative to the
    /// scenario file unless absolute (`od_matrix: trips/nyc-sample-od.json`); it is read and checked against the city's
    /// zone count when the scenario is loaded. The long form `{ file: …, model_hash: … }` (the canonical JSON's)
    /// also checks that the file's model still has that hash (FNV-1a of its compact JSON).
    public struct FittedDemand: Sendable, Equatable, Encodable {
        /// The path as written in the scenario.
        public var file: String
        /// The model read from it.
        public var model: ODMatrix

        /// Encodes the path and a hash of the model, so a changed file changes the scenario's hash.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(file, forKey: .file)
            try container.encode(modelHash, forKey: .modelHash)
        }

        /// FNV-1a of the model's compact JSON, 16 hex digits.
        var modelHash: String { TripFileReader.fnv1a([UInt8]((try? model.json()) ?? Data())) }

        enum Keys: String, ScenarioKeys { case file, modelHash = "model_hash" }

        static func read(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> Self {
            var file: String, pinned: String? = nil, at = reader
            if case .mapping = reader.node.value {
                let map = try reader.mapping(Keys.self)
                file = try map.string(.file)
                pinned = try map.optional(.modelHash) { (r) throws(ScenarioError) in try r.string() }
                at = map.child(.file) ?? reader
            } else {
                file = try reader.string()
            }
            let zones = (try? city.geometry().zoneCount) ?? 0
            let fitted: Self
            do {
                fitted = Self(file: file, model: try ODMatrix.read(path: Scenario.path(of: file, besides: reader.file), zones: zones))
            } catch {
                throw at.error("\(error)")
            }
            if let pinned, pinned != fitted.modelHash {
                throw reader.error("\(file) has changed: its model hashes to \(fitted.modelHash), not \(pinned)")
            }
            return fitted
        }
    }
}
