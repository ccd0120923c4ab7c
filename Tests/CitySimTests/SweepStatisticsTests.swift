import Foundation
import Testing
@testable import CitySim

@Suite("Sweep statistics")
struct SweepStatisticsTests {
    @Test("95 % CI half-width is t(0.975, n-1) × s / √n on known numbers")
    func confidenceOnKnownNumbers() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd √(32/7); t(0.975, 7) = 2.364624.
        let (mean, half) = Statistics.meanWithConfidence([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(mean == 5)
        #expect(abs(half - 2.364624 * (32.0 / 7).squareRoot() / 8.0.squareRoot()) < 1e-5)
        // Two values 1 and 3: sd √2, t(0.975, 1) = 12.7062 → half-width 12.7062.
        #expect(abs(Statistics.meanWithConfidence([1, 3]).halfWidth - 12.7062) < 1e-3)
        #expect(Statistics.meanWithConfidence([4]) == (4, 0))
        // 90 %: t(0.95, 7) = 1.894579.
        let ninety = Statistics.meanWithConfidence([2, 4, 4, 4, 5, 5, 7, 9], level: 0.90).halfWidth
        #expect(abs(ninety - 1.894579 * (32.0 / 7).squareRoot() / 8.0.squareRoot()) < 1e-5)
    }

    @Test("points.csv holds each point's mean and CI of its replications")
    func pointEstimates() throws {
        let folder = try temporaryFolder("points")
        _ = try SweepRunner(experiment: try tinyExperiment(replications: 3), directory: folder).run(jobs: 2)
        let results = try SweepResults.load(from: [folder])
        let waits = (0..<3).map { results.records[3 + $0].summary.waitS.p90 }
        let expected = Statistics.meanWithConfidence(waits)
        let estimate = results.estimate(point: 1, metric: "wait_s.p90")
        #expect(estimate.mean == expected.mean && estimate.ci95HalfWidth == expected.halfWidth)
        let row = results.pointsCSV.split(separator: "\n")[2]
        #expect(row.hasPrefix("1,1,nearest-idle,3,\(SweepResults.number(expected.mean)),\(SweepResults.number(expected.halfWidth)),"))
    }

    @Test("paired comparison with the best point: zero for itself, and the best is the smallest mean")
    func pairedComparison() throws {
        let folder = try temporaryFolder("paired")
        _ = try SweepRunner(experiment: try tinyExperiment(), directory: folder).run(jobs: 2)
        let results = try SweepResults.load(from: [folder])
        let best = results.best(for: "wait_s.p90")
        let means = (0..<4).map { results.estimate(point: $0, metric: "wait_s.p90").mean }
        #expect(means[best] == means.min())
        let comparisons = results.comparisons(to: best, metric: "wait_s.p90")
        #expect(comparisons[best].difference == 0 && comparisons[best].tiedWithBest)
        #expect(comparisons.allSatisfy { $0.difference >= 0 })
    }
}
