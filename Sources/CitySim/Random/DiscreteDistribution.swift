import CGSL

/// Why a set of weights cannot define a discrete distribution.
public enum DiscreteDistributionError: Error, Equatable, Sendable {
    /// No weights were given.
    case noWeights
    /// The weight at `index` is NaN or infinite.
    case nonFiniteWeight(index: Int, value: Double)
    /// The weight at `index` is below zero.
    case negativeWeight(index: Int, value: Double)
    /// The weights add up to zero (or overflow), so no index can be drawn.
    case nonPositiveTotal(Double)
    /// GSL could not build its lookup table.
    case preprocessingFailed
}

/// Draws index `i` with probability `weights[i] / weights.sum()`, in O(1)
/// per draw (GSL's Walker alias tables).
///
/// Invariants: owns exactly one `gsl_ran_discrete_t`, built from validated
/// weights (non-empty, finite, non-negative, positive finite sum) and freed in
/// `deinit`; it is immutable after `init`, so one table may serve many
/// streams.
///
/// ```swift
/// let zones = try DiscreteDistribution(weights: [5, 1, 0, 4])
/// let zone = zones.sample(using: streams.places)   // 0, 1 or 3
/// ```
public final class DiscreteDistribution {
    /// The weights normalised to sum to 1.
    public let probabilities: [Double]

    @usableFromInline let table: UnsafeMutablePointer<gsl_ran_discrete_t>

    /// Builds the lookup table for `weights`.
    ///
    /// - Throws: ``DiscreteDistributionError`` naming the first bad weight.
    /// - Complexity: O(n)
    public init(weights: [Double]) throws(DiscreteDistributionError) {
        guard !weights.isEmpty else { throw .noWeights }
        var total = 0.0
        for (index, weight) in weights.enumerated() {
            guard weight.isFinite else { throw .nonFiniteWeight(index: index, value: weight) }
            guard weight >= 0 else { throw .negativeWeight(index: index, value: weight) }
            total += weight
        }
        guard total > 0, total.isFinite else { throw .nonPositiveTotal(total) }
        _ = RandomStream.disableGSLErrorHandler
        guard let table = weights.withUnsafeBufferPointer({ gsl_ran_discrete_preproc($0.count, $0.baseAddress) }) else {
            throw .preprocessingFailed
        }
        self.table = table
        probabilities = weights.map { $0 / total }
    }

    deinit {
        gsl_ran_discrete_free(table)
    }

    /// The number of outcomes (indices `0 ..< count`).
    public var count: Int { probabilities.count }

    /// Draws an index from `stream`.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func sample(using stream: RandomStream) -> Int {
        Int(gsl_ran_discrete(stream.generator, table))
    }
}
