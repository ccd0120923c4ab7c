import CGSL
@testable import CitySim
import TestSupport
import Testing

@Suite("Sample means side by side")
struct SampleMeansTests {
    private static func gslMean(_ sample: [Double]) -> Double {
        sample.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
    }

    /// Samples of lengths 0 to a few thousand, sorted as the summary's are, with values of very different sizes
    /// (so the running mean's roundings differ from a plain sum's and from one another's).
    private static func samples(count: Int, seed: UInt64) -> [[Double]] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let length = i % 7 == 0 ? 0 : i % 5 == 0 ? Int.random(in: 1000...4000, using: &random) : Int.random(in: 1...300, using: &random)
            return (0..<length).map { _ in
                Double.random(in: 0..<1, using: &random) * (Bool.random(using: &random) ? 1e-3 : 7_200)
                    + Double(Int.random(in: 0...3, using: &random))
            }.sorted()
        }
    }

    @Test("each mean is GSL's, bit for bit, whatever the number and lengths of the samples",
          arguments: [0, 1, 3, 4, 5, 9, 61])
    func eachMeanIsGSLs(count: Int) {
        let samples = Self.samples(count: count, seed: UInt64(100 + count))
        let means = SampleMeans.of(samples)
        #expect(means.count == samples.count)
        #expect(means.map(\.bitPattern) == samples.map { Self.gslMean($0).bitPattern })
    }

    @Test("a plain Double running mean or a sum over the count would not pass the comparison above")
    func theComparisonTellsExtendedPrecisionApart() {
        // The test above has power only if a chain computed in Double, or as a sum, gives other bits somewhere.
        let samples = Self.samples(count: 61, seed: 161)
        var doubleRunning = 0, summed = 0
        for sample in samples where !sample.isEmpty {
            var mean = 0.0
            for (i, x) in sample.enumerated() { mean += (x - mean) / Double(i + 1) }
            if mean.bitPattern != Self.gslMean(sample).bitPattern { doubleRunning += 1 }
            if (sample.reduce(0, +) / Double(sample.count)).bitPattern != Self.gslMean(sample).bitPattern { summed += 1 }
        }
        #expect(doubleRunning > 0 && summed > 0)
    }
}
