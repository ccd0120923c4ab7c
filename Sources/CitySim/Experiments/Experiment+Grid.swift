/// The runs of an experiment: grid points (the cartesian product of the grid's values) × replications.
extension Experiment {
    /// One grid point: a value for every grid key, in grid order.
    public struct Point: Sendable, Equatable, Codable {
        /// Position in `Experiment.points` (0-based).
        public var index: Int
        /// One value (YAML text) per grid axis, in the grid's key order.
        public var values: [String]
    }

    /// One run: a grid point and a replication index.
    public struct Run: Sendable, Equatable {
        /// Position in `Experiment.runs`: `point * replications + replication`.
        public var index: Int
        public var point: Int
        public var replication: Int
    }

    /// The grid points, first grid key varying slowest (nested loops in file order); one empty point
    /// when the grid is empty.
    ///
    /// - Complexity: O(product of the axes' sizes × axes).
    public var points: [Point] {
        var combinations: [[String]] = [[]]
        for axis in grid {
            combinations = combinations.flatMap { prefix in axis.values.map { prefix + [$0] } }
        }
        return combinations.enumerated().map { Point(index: $0.offset, values: $0.element) }
    }

    /// Every run, point-major: the replications of point 0, then of point 1, …
    public var runs: [Run] {
        (0..<(points.count * replications)).map {
            Run(index: $0, point: $0 / replications, replication: $0 % replications)
        }
    }

    /// The overrides of one grid point: `set` first, then one `key=value` per grid axis.
    public func overrides(for point: Point) -> [String] {
        set + zip(grid, point.values).map { "\($0.key)=\($1)" }
    }

    /// The scenario of one grid point, validated like a scenario file.
    /// - Throws: `ScenarioError` naming the scenario file and the offending override.
    public func scenario(for point: Point) throws(ScenarioError) -> Scenario {
        try Scenario.load(path: scenarioPath, overrides: overrides(for: point))
    }

    /// A value as people read it: YAML quotes dropped (`"07:00"` → `07:00`).
    static func label(_ value: String) -> String {
        value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
    }
}

/// A deterministic slice of a sweep's runs: `index` of `count` takes the runs whose index % count == index.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    /// The whole sweep.
    public static let all = Shard(index: 0, count: 1)

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `i/n` with 0 ≤ i < n; nil when malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        self.init(index: i, count: n)
    }

    public func contains(_ run: Experiment.Run) -> Bool { run.index % count == index }

    public var description: String { "\(index)/\(count)" }
}
