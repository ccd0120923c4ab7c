import CGSL

/// Descriptive statistics used by the summary (through GSL).
enum Statistics {
    /// Mean, p50, p90, p95, p99 and max of a sample; zeros for an empty one.
    static func distribution(_ values: [Double]) -> DistributionSummary {
        distribution(sorted: RadixSort.sorted(values))
    }

    /// `distribution(_:)` of a sample already in ascending order.
    static func distribution(sorted: [Double]) -> DistributionSummary {
        distribution(sorted: sorted, mean: sorted.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) })
    }

    /// `distribution(sorted:)` with the sample's mean already known (`SampleMeans`).
    static func distribution(sorted: [Double], mean: Double) -> DistributionSummary {
        guard !sorted.isEmpty else { return DistributionSummary() }
        func quantile(_ q: Double) -> Double {
            sorted.withUnsafeBufferPointer { gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, q) }
        }
        return DistributionSummary(mean: mean, p50: quantile(0.5), p90: quantile(0.9), p95: quantile(0.95),
                                   p99: quantile(0.99), max: sorted.last!)
    }

    /// `values` in ascending order, each with its tag; equal values keep their order (a stable sort).
    static func sortedWithTags(_ values: [Double], tags: [UInt32]) -> (values: [Double], tags: [UInt32]) {
        precondition(values.count == tags.count, "one tag per value")
        if let sorted = RadixSort.sorted(values, tags: tags) { return sorted }
        let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
        return (order.map { values[$0] }, order.map { tags[$0] })
    }

    /// Jain's fairness index (Σx)² / (n Σx²): 1 when all equal, 1/n when one has everything.
    static func jain(_ values: [Double]) -> Double {
        let sum = values.reduce(0, +), squares = values.reduce(0) { $0 + $1 * $1 }
        return squares > 0 ? sum * sum / (Double(values.count) * squares) : 1
    }

    /// Gini coefficient: 0 when all equal, → 1 when one has everything.
    static func gini(_ values: [Double]) -> Double {
        let sorted = RadixSort.sorted(values)
        let n = Double(sorted.count), total = sorted.reduce(0, +)
        guard n > 0, total > 0 else { return 0 }
        var weighted = 0.0
        for (i, x) in sorted.enumerated() { weighted += Double(i + 1) * x }
        return (2 * weighted) / (n * total) - (n + 1) / n
    }

    /// Mean and half-width of the two-sided confidence interval at `level` (Student t, default 95 %).
    static func meanWithConfidence(_ values: [Double], level: Double = 0.95) -> (mean: Double, halfWidth: Double) {
        guard values.count > 1 else { return (values.first ?? 0, 0) }
        let mean = values.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
        let sd = values.withUnsafeBufferPointer { gsl_stats_sd_m($0.baseAddress, 1, $0.count, mean) }
        let t = gsl_cdf_tdist_Pinv(level == 0.95 ? 0.975 : 0.5 + level / 2, Double(values.count - 1))
        return (mean, t * sd / Double(values.count).squareRoot())
    }
}

extension Statistics {
    /// Mean and the one-sided upper confidence bound at `level` (Student t with n − 1 degrees of freedom):
    /// the true mean is below `upper` with probability `level`. With one value the bound is the value.
    /// - Parameter level: in (0, 1), for example 0.95 for the t quantile 0.95.
    static func meanWithUpperBound(_ values: [Double], level: Double) -> (mean: Double, upper: Double) {
        guard values.count > 1 else { return (values.first ?? 0, values.first ?? 0) }
        let mean = values.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
        let sd = values.withUnsafeBufferPointer { gsl_stats_sd_m($0.baseAddress, 1, $0.count, mean) }
        let t = gsl_cdf_tdist_Pinv(level, Double(values.count - 1))
        return (mean, mean + t * sd / Double(values.count).squareRoot())
    }
}

/// Mean and quantiles of a duration, seconds.
public struct DistributionSummary: Codable, Sendable, Equatable {
    public var mean = 0.0, p50 = 0.0, p90 = 0.0, p95 = 0.0, p99 = 0.0, max = 0.0
}
