import Foundation
/// Means with 95 % confidence intervals (Student t) over replications of one scenario.
public struct ReplicationSummary: Codable, Sendable {
    public struct Estimate: Codable, Sendable {
        public var mean: Double
        public var ci95HalfWidth: Double
    }
    public var scenario: String
    public var seed: UInt64
    public var replications: Int
    public var metrics: [String: Estimate]

    /// The metrics estimated: name and how to read it from a summary.
    static let measures: [(String, @Sendable (RunSummary) -> Double)] = [
        ("wait_s.mean", { $0.waitS.mean }), ("wait_s.p90", { $0.waitS.p90 }), ("wait_s.p99", { $0.waitS.p99 }),
        ("assign_s.mean", { $0.assignS.mean }),
        ("reject_share", { $0.requests.generated > 0 ? Double($0.requests.rejected) / Double($0.requests.generated) : 0 }),
        ("served", { Double($0.requests.served) }), ("throughput_per_hour", { $0.throughputPerHour }),
        ("fleet.utilization", { $0.fleet.utilization }), ("fleet.mean_queue_wait_s", { $0.fleet.meanQueueWaitS }),
        ("fairness.jain_rides_per_shift_hour", { $0.fairness.jainRidesPerShiftHour }),
        ("fairness.gini_earnings", { $0.fairness.giniEarnings }),
    ]

    public init(_ summaries: [RunSummary]) {
        scenario = summaries.first?.scenario ?? ""
        seed = summaries.first?.seed ?? 0
        replications = summaries.count
        var metrics: [String: Estimate] = [:]
        for (name, read) in Self.measures {
            let (mean, half) = Statistics.meanWithConfidence(summaries.map(read))
            metrics[name] = Estimate(mean: mean, ci95HalfWidth: half)
        }
        self.metrics = metrics
    }

    /// A readable table of the estimates.
    public var table: String {
        metrics.keys.sorted().map { key in
            let e = metrics[key]!
            return key.padding(toLength: 36, withPad: " ", startingAt: 0) + String(format: "%12.3f ± %.3f", e.mean, e.ci95HalfWidth)
        }.joined(separator: "\n")
    }
}
