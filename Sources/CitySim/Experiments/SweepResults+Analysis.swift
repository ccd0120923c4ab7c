/// The best grid point for the plotted metric, and paired comparisons against it.
extension SweepResults {
    /// A grid point compared with the best one on the same replications (common random numbers).
    public struct Comparison: Codable, Sendable, Equatable {
        public var point: Int
        /// Mean over replications of (this point − best point), with the 95 % CI half-width of that mean.
        public var difference: Double
        public var ci95HalfWidth: Double
        /// Whether the interval contains 0: not distinguishable from the best at 95 %.
        public var tiedWithBest: Bool { abs(difference) <= ci95HalfWidth }
    }

    /// The best point for `metric` (smallest mean, or largest when larger is better); ties go to the lower index.
    public func best(for metric: String) -> Int {
        let better = SweepMetric.named(metric)!.higherIsBetter
        var best = 0
        for point in experiment.points.indices.dropFirst() {
            let a = estimate(point: point, metric: metric).mean, b = estimate(point: best, metric: metric).mean
            if better ? a > b : a < b { best = point }
        }
        return best
    }

    /// Paired differences of every point against `reference` for `metric`: replication r of both points saw
    /// the same customers, so the difference's interval is much narrower than the two intervals suggest.
    public func comparisons(to reference: Int, metric: String) -> [Comparison] {
        let read = SweepMetric.named(metric)!.read
        let n = experiment.replications
        return experiment.points.indices.map { point in
            let differences = (0..<n).map { r in
                read(records[point * n + r].summary) - read(records[reference * n + r].summary)
            }
            let (mean, half) = Statistics.meanWithConfidence(differences)
            return Comparison(point: point, difference: mean, ci95HalfWidth: half)
        }
    }

    // MARK: - sweep.json

    struct Document: Encodable {
        struct Point: Encodable {
            var point: Int
            var values: [String: String]
            var scenarioHash: String
            var seed: UInt64
            var metrics: [String: Estimate]
        }
        struct Best: Encodable {
            var metric: String
            var higherIsBetter: Bool
            var point: Int
            var values: [String: String]
            var mean: Double
            var ci95HalfWidth: Double
            /// Points whose paired difference from the best is not significant at 95 %.
            var tiedPoints: [Int]
        }
        var name: String
        var description: String
        var scenario: String
        var replications: Int
        var set: [String]
        var grid: [Experiment.Axis]
        var metrics: [String]
        var plot: Experiment.Plot
        var runs: Int
        var commonRandomNumbers: String
        var commits: [String]
        var points: [Point]
        var best: Best
    }

    static let commonRandomNumbersNote = "Common random numbers: replication r of every grid point runs the same seed and "
        + "replication index, and customers are drawn only from the demand streams, so every grid point sees the same "
        + "customers (times, places, patience); differences between grid points are not demand noise."

    var document: Document {
        let keys = experiment.grid.map(\.key)
        func values(_ point: Int) -> [String: String] {
            Dictionary(uniqueKeysWithValues: zip(keys, experiment.points[point].values.map(Experiment.label)))
        }
        let points = experiment.points.map { point in
            Document.Point(point: point.index, values: values(point.index), scenarioHash: manifest.pointHashes[point.index],
                           seed: manifest.pointSeeds[point.index],
                           metrics: Dictionary(uniqueKeysWithValues: zip(experiment.metrics, estimates[point.index])))
        }
        let y = experiment.plot.y
        let bestPoint = best(for: y)
        let estimate = estimate(point: bestPoint, metric: y)
        let tied = comparisons(to: bestPoint, metric: y).filter { $0.point != bestPoint && $0.tiedWithBest }.map(\.point)
        return Document(
            name: experiment.name, description: experiment.description, scenario: experiment.scenario,
            replications: experiment.replications, set: experiment.set, grid: experiment.grid, metrics: experiment.metrics,
            plot: experiment.plot, runs: records.count, commonRandomNumbers: Self.commonRandomNumbersNote,
            commits: Array(Set(records.compactMap(\.summary.commit))).sorted(), points: points,
            best: Document.Best(metric: y, higherIsBetter: SweepMetric.named(y)!.higherIsBetter, point: bestPoint,
                                values: values(bestPoint), mean: estimate.mean, ci95HalfWidth: estimate.ci95HalfWidth,
                                tiedPoints: tied))
    }
}
