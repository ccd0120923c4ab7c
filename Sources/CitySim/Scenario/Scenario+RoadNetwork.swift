import DispatchCore
import Foundation
import RoadNetwork

extension Scenario {
    /// `city.road_network` — a real road network (an OpenStreetMap extract) instead of the textbook rectangle.
    ///
    /// With it the city is the network's projected bounding box (`LocalProjection`: metres east of the
    /// westernmost and north of the southernmost drivable node; `width_km`/`height_km` are derived, not
    /// keys), travel times are shortest paths on the roads (`RoadTravelEstimator`) and every drawn place is
    /// snapped to the nearest road. `width_km`, `height_km`, `metric`, `detour_factor`, `speed_kmh` and
    /// `speed_factor_by_hour` do not apply and are errors next to it; the hour's traffic is `congestion_by_hour`.
    ///
    /// Invariant: `osm` names a file that loaded into a non-empty, strongly connected `RoadGraph`
    /// (`RoadNetworkLibrary`) and `congestionByHour` is accepted by `CongestionProfile(hourlyFactors:)`.
    public struct RoadNetworkSpec: Sendable, Equatable, Encodable {
        /// `osm` — the `.osm.pbf` or `.osm` (XML) extract, relative to the scenario file (or absolute).
        /// Required. Stored resolved against the scenario file's folder, so the canonical JSON names the
        /// file wherever it is loaded from.
        public var osm: String
        /// `congestion_by_hour` — travel-time factors by road class: `{ <OSM highway value or default>: [24 factors] }`,
        /// 1 = free flow, 1.5 = 50 % slower (index 0 = 00:00–01:00). Classes with neither their own key nor
        /// `default` drive at free flow. Each factor > 0; default: free flow all day.
        public var congestionByHour: [String: [Double]]

        /// The congestion profile the router contracts (one hierarchy per distinct hour).
        public var congestion: CongestionProfile {
            // Validated when the scenario was read.
            (try? CongestionProfile(hourlyFactors: congestionByHour)) ?? .freeFlow
        }

        enum CodingKeys: String, ScenarioKeys {
            case osm, congestionByHour = "congestion_by_hour"
        }
    }
}

// MARK: - Decoding

extension Scenario.RoadNetworkSpec {
    /// The keys of `city` that describe the textbook rectangle and its travel model: errors next to `road_network`.
    static let rectangleKeys: [Scenario.City.CodingKeys] = [
        .widthKm, .heightKm, .metric, .detourFactor, .speedKmh, .speedFactorByHour, .projection,
    ]

    /// Reads the section and loads its network (cached per file by `RoadNetworkLibrary`).
    /// - Returns: the spec and the loaded graph.
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> (spec: Self, graph: RoadGraph) {
        let map = try reader.mapping(CodingKeys.self)
        let given = try map.string(.osm)
        let path = resolve(given, against: reader.file)
        let graph: RoadGraph
        do {
            graph = try RoadNetworkLibrary.graph(path: path)
        } catch {
            throw map.error(at: .osm, "cannot load the road network '\(path)': \(error)")
        }
        var factors: [String: [Double]] = [:]
        if let section = map.child(.congestionByHour) {
            guard case .mapping(let entries) = section.node.value else {
                throw section.error("expected a mapping of road class to 24 factors, got \(section.node.kindName)")
            }
            for entry in entries {
                let child = ScenarioReader(file: reader.file, path: "\(section.path).\(entry.key)", node: entry.node)
                guard entry.key == "default" || RoadClass(highway: entry.key) != nil else {
                    let known = ["default"] + RoadClass.allCases.map(\.rawValue)
                    throw child.error("unknown road class '\(entry.key)' (known: \(known.joined(separator: ", ")))")
                }
                factors[entry.key] = try child.doubles(count: 24, .positive)
            }
        }
        return (Self(osm: path, congestionByHour: factors), graph)
    }

    /// `path` relative to the folder of the scenario file `file` (unchanged when absolute).
    static func resolve(_ path: String, against file: String) -> String {
        if path.hasPrefix("/") { return path }
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? path : ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
    }
}
