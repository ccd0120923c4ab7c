/// A number read from a run summary, by name, for sweep tables and plots.
///
/// ```swift
/// SweepMetric.named("wait_s.p90")!.read(summary)   // seconds
/// ```
public struct SweepMetric: Sendable {
    public let name: String
    /// Whether a larger value is better (throughput, utilization, fairness index); otherwise smaller is.
    public let higherIsBetter: Bool
    /// How to say the value in a report ("s", "share", "count").
    public let unit: Unit
    let read: @Sendable (RunSummary) -> Double

    public enum Unit: Sendable { case seconds, share, count, rate, index }

    /// The metrics of an experiment without a `metrics` key.
    public static let standard = [
        "wait_s.mean", "wait_s.p50", "wait_s.p90", "wait_s.p99", "assign_s.mean", "reject_share", "lost_share",
        "served", "throughput_per_hour", "fleet.taxis", "fleet.utilization", "fleet.mean_queue_wait_s",
        "fairness.jain_rides_per_shift_hour", "fairness.gini_earnings",
    ]

    public static func named(_ name: String) -> SweepMetric? { catalog.first { $0.name == name } }

    /// Every metric a sweep can tabulate. Shares are of all requests made after the warm-up.
    public static let catalog: [SweepMetric] = {
        func share(_ part: @escaping @Sendable (RunSummary.RequestCounts) -> Int) -> @Sendable (RunSummary) -> Double {
            { $0.requests.generated > 0 ? Double(part($0.requests)) / Double($0.requests.generated) : 0 }
        }
        func distribution(_ prefix: String, _ get: @escaping @Sendable (RunSummary) -> DistributionSummary) -> [SweepMetric] {
            [("mean", \DistributionSummary.mean), ("p50", \.p50), ("p90", \.p90), ("p95", \.p95), ("p99", \.p99), ("max", \.max)]
                .map { name, path in SweepMetric(name: "\(prefix).\(name)", higherIsBetter: false, unit: .seconds) { get($0)[keyPath: path] } }
        }
        var all = distribution("wait_s", { $0.waitS }) + distribution("assign_s", { $0.assignS })
        all += [
            SweepMetric(name: "reject_share", higherIsBetter: false, unit: .share, read: share { $0.rejected }),
            SweepMetric(name: "expired_share", higherIsBetter: false, unit: .share, read: share { $0.expired }),
            SweepMetric(name: "lost_share", higherIsBetter: false, unit: .share, read: share { $0.rejected + $0.expired }),
            SweepMetric(name: "served_share", higherIsBetter: true, unit: .share, read: share { $0.served }),
            SweepMetric(name: "generated", higherIsBetter: true, unit: .count) { Double($0.requests.generated) },
            SweepMetric(name: "served", higherIsBetter: true, unit: .count) { Double($0.requests.served) },
            SweepMetric(name: "rejected", higherIsBetter: false, unit: .count) { Double($0.requests.rejected) },
            SweepMetric(name: "expired", higherIsBetter: false, unit: .count) { Double($0.requests.expired) },
            SweepMetric(name: "cancelled", higherIsBetter: false, unit: .count) { Double($0.requests.cancelled) },
            // OD draws on demand zones of their own that fell outside every dispatch zone (0 for other demand).
            SweepMetric(name: "dropped_outside_zones", higherIsBetter: false, unit: .count) { Double($0.requests.droppedOutsideZones ?? 0) },
            SweepMetric(name: "throughput_per_hour", higherIsBetter: true, unit: .rate) { $0.throughputPerHour },
            SweepMetric(name: "fleet.taxis", higherIsBetter: false, unit: .count) { Double($0.fleet.taxis) },
            SweepMetric(name: "fleet.utilization", higherIsBetter: true, unit: .share) { $0.fleet.utilization },
            SweepMetric(name: "fleet.mean_queue_wait_s", higherIsBetter: false, unit: .seconds) { $0.fleet.meanQueueWaitS },
            SweepMetric(name: "fairness.jain_rides_per_shift_hour", higherIsBetter: true, unit: .index) { $0.fairness.jainRidesPerShiftHour },
            SweepMetric(name: "fairness.gini_earnings", higherIsBetter: false, unit: .index) { $0.fairness.giniEarnings },
            SweepMetric(name: "fairness.fifo_violations", higherIsBetter: false, unit: .count) { Double($0.fairness.fifoViolations) },
            SweepMetric(name: "offers.declined", higherIsBetter: false, unit: .count) { Double($0.offers.declined) },
            SweepMetric(name: "offers.timed_out", higherIsBetter: false, unit: .count) { Double($0.offers.timedOut) },
            SweepMetric(name: "engine.events", higherIsBetter: false, unit: .count) { Double($0.engine.events) },
        ]
        return all
    }()
}
