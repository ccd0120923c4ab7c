import Foundation

/// A sweep: a base scenario, fixed overrides, a grid of parameter values and a number of replications,
/// as read from an experiment YAML file (read as strictly as a scenario).
///
/// ```yaml
/// name: zone-size
/// scenario: ../seeds-reference.yaml          # relative to the experiment file
/// replications: 5                             # replication indices 0..4 of the scenario's seed
/// set: ["duration_hours=12"]                  # fixed overrides of every run (optional)
/// grid:                                       # scenario key path -> values (cartesian product, file order)
///   city.zone.side_km: [0.5, 1, 2]
///   dispatch.policy: [zone-fifo, nearest-idle]
/// metrics: [wait_s.p90, reject_share]         # optional; default `SweepMetric.standard`
/// plot: { x: city.zone.side_km, y: wait_s.p90, lines: dispatch.policy }   # optional
/// ```
///
/// Every run is one (grid point, replication). Replication r of every grid point uses the same seed and
/// replication index, so the same customers appear at every grid point (common random numbers).
public struct Experiment: Sendable, Equatable, Codable {
    /// `name` — label of the sweep. Required, non-empty.
    public var name: String
    /// `description` — free text. Optional.
    public var description: String
    /// `scenario` — the base scenario file, as written in the experiment file (relative to it).
    public var scenario: String
    /// The base scenario's path, resolved against the experiment file's folder.
    public var scenarioPath: String
    /// `replications` — runs per grid point. Integer >= 1, default 1.
    public var replications: Int
    /// `set` — overrides (`key.path=value`) applied to every run before the grid's. Optional.
    public var set: [String]
    /// `grid` — the swept keys in file order, each with its values (YAML text). Optional (one point).
    public var grid: [Axis]
    /// `metrics` — the metrics tabulated, by name (see `SweepMetric.catalog`). Default `SweepMetric.standard`.
    public var metrics: [String]
    /// `plot` — what the report plots. Default: x = first grid key, y = first metric,
    /// lines = second grid key, panels = the rest.
    public var plot: Plot

    /// One swept key and its values.
    public struct Axis: Sendable, Equatable, Codable {
        /// A scenario key path (`city.zone.side_km`).
        public var key: String
        /// Values as YAML text, as an override takes them (`0.5`, `zone-fifo`, `{kind: zero}`).
        public var values: [String]
    }

    /// The report's chart: `y` against `x`, one line per value of `lines`, one panel per value of `panels`.
    public struct Plot: Sendable, Equatable, Codable {
        public var x: String?
        public var y: String
        public var lines: String?
        public var panels: String?
    }

    /// The keys an experiment file may hold.
    enum FileKeys: String, ScenarioKeys {
        case name, description, scenario, replications, set, grid, metrics, plot
    }

    enum PlotKeys: String, ScenarioKeys {
        case x, y, lines, panels
    }
}

// MARK: - Loading

extension Experiment {
    /// Loads an experiment file strictly and checks that every grid point is a valid scenario.
    ///
    /// - Parameter path: the experiment YAML file.
    /// - Returns: the experiment, its scenario path resolved against the file's folder.
    /// - Throws: `ScenarioError` naming the file, key path and reason (unknown keys list the known ones);
    ///   a grid point the scenario loader rejects is reported with the offending override.
    public static func load(path: String) throws(ScenarioError) -> Experiment {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError(file: path, keyPath: "", reason: "cannot read file: \(error.localizedDescription)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try load(yaml: text, file: path, folder: folder)
    }

    /// Loads an experiment from YAML text; `file` labels errors, `folder` resolves `scenario`.
    public static func load(yaml: String, file: String, folder: URL) throws(ScenarioError) -> Experiment {
        let root = try ScenarioNode.parse(yaml: yaml, file: file)
        let map = try ScenarioReader(file: file, path: "", node: root).mapping(FileKeys.self)
        let name = try map.string(.name)
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw map.error(at: .name, "expected a non-empty string")
        }
        let scenario = try map.string(.scenario)
        let scenarioPath = scenario.hasPrefix("/") ? scenario
            : folder.appendingPathComponent(scenario).standardizedFileURL.path
        let replications = try map.int(.replications, default: 1, .atLeast(1))
        let set: [String] = try map.optional(.set, default: [String]()) { (r) throws(ScenarioError) -> [String] in
            var values: [String] = []
            for element in try r.sequence() { values.append(try element.string()) }
            return values
        }
        let grid: [Axis] = try map.optional(.grid, default: [Axis]()) { (r) throws(ScenarioError) -> [Axis] in try readGrid(r) }
        let metrics: [String] = try map.optional(.metrics, default: SweepMetric.standard) { (r) throws(ScenarioError) -> [String] in
            var names: [String] = []
            for element in try r.sequence(minCount: 1) {
                let name = try element.string()
                guard SweepMetric.named(name) != nil else {
                    throw element.error("unknown metric '\(name)' (known: \(SweepMetric.catalog.map(\.name).joined(separator: ", ")))")
                }
                guard !names.contains(name) else { throw element.error("metric '\(name)' listed twice") }
                names.append(name)
            }
            return names
        }
        let plot = try readPlot(map, grid: grid, metrics: metrics)
        return Experiment(name: name, description: try map.string(.description, default: ""),
                          scenario: scenario, scenarioPath: scenarioPath, replications: replications,
                          set: set, grid: grid, metrics: metrics, plot: plot)
    }

    private static func readGrid(_ reader: ScenarioReader) throws(ScenarioError) -> [Axis] {
        let entries: [ScenarioNode.Entry]
        switch reader.node.value {
        case .mapping(let found): entries = found
        case .null: entries = []
        default: throw reader.error("expected a mapping of scenario key paths to lists of values, got \(reader.node.kindName)")
        }
        var axes: [Axis] = []
        for entry in entries {
            let child = ScenarioReader(file: reader.file, path: "grid.\(entry.key)", node: entry.node)
            var values: [String] = []
            for element in try child.sequence(minCount: 1) { values.append(element.node.yamlText) }
            guard Set(values).count == values.count else { throw child.error("a value is listed twice") }
            axes.append(Axis(key: entry.key, values: values))
        }
        return axes
    }

    private static func readPlot(_ map: MappingReader<FileKeys>, grid: [Axis], metrics: [String])
        throws(ScenarioError) -> Plot
    {
        let keys = grid.map(\.key)
        var plot = Plot(x: keys.first, y: metrics.contains("wait_s.p90") ? "wait_s.p90" : metrics[0],
                        lines: keys.count > 1 ? keys[1] : nil, panels: keys.count > 2 ? keys[2] : nil)
        guard let section = map.child(.plot) else { return plot }
        let plotMap = try section.mapping(PlotKeys.self)
        func gridKey(_ key: PlotKeys) throws(ScenarioError) -> String? {
            try plotMap.optional(key) { (r) throws(ScenarioError) in
                let value = try r.string()
                guard keys.contains(value) else {
                    throw r.error("'\(value)' is not a grid key (grid keys: \(keys.joined(separator: ", ")))")
                }
                return value
            }
        }
        plot.x = try gridKey(.x) ?? plot.x
        plot.lines = try gridKey(.lines)
        plot.panels = try gridKey(.panels)
        plot.y = try plotMap.optional(.y, default: plot.y) { (r) throws(ScenarioError) in
            let value = try r.string()
            guard metrics.contains(value) else {
                throw r.error("'\(value)' is not one of the metrics (\(metrics.joined(separator: ", ")))")
            }
            return value
        }
        let used: [String] = [plot.x, plot.lines, plot.panels].compactMap { $0 }
        guard Set(used).count == used.count else {
            throw section.error("x, lines and panels must name different grid keys")
        }
        return plot
    }
}

// MARK: - YAML text of a value

extension ScenarioNode {
    /// The value as flow YAML, as an override takes it: `0.5`, `zone-fifo`, `"07:00"`, `{kind: fixed, value_s: 5}`.
    var yamlText: String {
        switch value {
        case .null: return "null"
        case .scalar(let text, let quoted):
            guard quoted else { return text }
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .sequence(let elements): return "[" + elements.map(\.yamlText).joined(separator: ", ") + "]"
        case .mapping(let entries): return "{" + entries.map { "\($0.key): \($0.node.yamlText)" }.joined(separator: ", ") + "}"
        }
    }
}
