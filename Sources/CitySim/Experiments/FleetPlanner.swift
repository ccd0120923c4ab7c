import Foundation

/// For each hour of the day, the smallest fleet that meets a wait target and a loss limit with confidence.
///
/// Method: the scenario runs at a series of `fleet.scale` values (a coarse grid, then a finer grid between
/// the last failing and the first passing coarse scale of each hour), each with `replications` replications
/// (common random numbers: every scale sees the same customers). Each run simulates `warmupDays` whole days
/// before the planned day and measures only the planned day, so 00:00 and the late hours start from a loaded
/// city, not an empty one. An hour passes at a scale when the one-sided upper confidence bound at level
/// `confidence` (Student t, n − 1 degrees of freedom) of the target's statistic of its waits, over the
/// replications, is at most the limit, and its pooled share of lost requests ((rejected + expired) / demand)
/// is at most `maxLostShare`. The taxis an hour needs are the taxis on shift in that hour (from the scenario's
/// shifts, at the hour's midpoint) at the smallest scale from which every larger scale tried passes. Hours
/// interact (a backlog carries over), so the need of an hour is measured with the whole day scaled, not in isolation.
///
/// Invariant: `replications >= 2`, `0.5 < confidence < 1`, `warmupDays >= 0`.
public struct FleetPlanner: Sendable {
    public var scenario: Scenario
    public var target: WaitTarget
    /// Largest share of an hour's requests lost: rejected (no taxi) or expired (patience ran out).
    public var maxLostShare: Double
    public var replications: Int
    /// Level of the one-sided upper confidence bound, e.g. 0.95.
    public var confidence: Double
    public var coarseScales: [Double]
    public var fineStep: Double
    /// Whole days simulated before the planned day (0: the scenario's own horizon and warm-up).
    public var warmupDays: Int

    public init(scenario: Scenario, target: WaitTarget, maxLostShare: Double, replications: Int = 5,
                confidence: Double = 0.95, coarseScales: [Double] = stride(from: 0.2, through: 2.0001, by: 0.2).map { ($0 * 100).rounded() / 100 },
                fineStep: Double = 0.05, warmupDays: Int = 1) {
        self.scenario = scenario
        self.target = target
        self.maxLostShare = maxLostShare
        self.replications = replications
        self.confidence = confidence
        self.coarseScales = coarseScales
        self.fineStep = fineStep
        self.warmupDays = warmupDays
    }

    /// The scenario as each run simulates it: `warmupDays` days before the planned day, counted from the planned
    /// day's 00:00 (or, with no warm-up days, the scenario's own horizon and warm-up).
    public var simulatedScenario: Scenario {
        var simulated = scenario
        if warmupDays > 0 {
            simulated.durationHours = Double(24 * (warmupDays + 1))
            simulated.warmupHours = Double(24 * warmupDays)
        }
        return simulated
    }

    /// One hour of the day at one scale, over the replications.
    public struct HourEstimate: Codable, Sendable, Equatable {
        public var hour: Int
        public var taxisOnShift: Int
        public var demand: Double
        /// Mean over the replications of the target's statistic of the hour's waits, seconds.
        public var waitMean: Double
        /// Its one-sided upper confidence bound at the planner's `confidence`, seconds.
        public var waitUpper: Double
        public var lostShare: Double
        public var passes: Bool
        /// False when the hour lies in the warm-up (or beyond the horizon): nothing was measured.
        public var measured: Bool
    }

    /// One fleet scale, evaluated.
    public struct Evaluation: Codable, Sendable, Equatable {
        public var scale: Double
        public var hours: [HourEstimate]
    }

    /// Parses a p90 wait target (`p90 wait <= 300 s`, `5 min`, `300`): its limit in seconds, or nil for any
    /// other statistic or a malformed text. Kept for callers of the p90-only planner; use `WaitTarget(parsing:)`.
    public static func parseTarget(_ text: String) -> Double? {
        guard let target = try? WaitTarget(parsing: text), target.statistic == .p90 else { return nil }
        return target.limitS
    }

    /// Parses a share: `2%`, `0.02`.
    public static func parseShare(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            return Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)).map { $0 / 100 }.flatMap { (0...1).contains($0) ? $0 : nil }
        }
        return Double(trimmed).flatMap { (0...1).contains($0) ? $0 : nil }
    }

    /// Taxis on shift at the middle of each hour of the day, from the scenario's shifts at `scale`.
    public static func taxisOnShift(_ fleet: Scenario.Fleet, scale: Double) -> [Int] {
        var scaled = fleet
        scaled.scale = scale
        return (0..<24).map { hour in
            let minute = hour * 60 + 30
            return scaled.shifts.reduce(0) { sum, shift in
                let into = (minute - shift.start.minutes + Scenario.TimeOfDay.minutesPerDay) % Scenario.TimeOfDay.minutesPerDay
                return sum + (into < shift.durationMinutes ? scaled.taxis(in: shift) : 0)
            }
        }
    }

    /// Runs the scenario at `scale`, `replications` times, and estimates every hour of the day.
    public func evaluate(scale: Double, jobs: Int) throws -> Evaluation {
        var scaled = simulatedScenario
        scaled.fleet.scale = scale
        let scenario = scaled
        let summaries = try parallelMap(replications, jobs: jobs) { replication in
            try CitySimulation(scenario: scenario, seed: scenario.seed, replication: replication).run().summary
        }
        let taxis = Self.taxisOnShift(scenario.fleet, scale: scale)
        let firstCounted = Int(scenario.warmupHours.rounded(.up))
        let hours = (0..<24).map { hour -> HourEstimate in
            var waits: [Double] = [], demand = 0, lost = 0, measured = false
            for summary in summaries {
                let entries = summary.perHour.filter { $0.hour >= firstCounted && $0.hour % 24 == hour }
                measured = measured || !entries.isEmpty
                waits.append(entries.map(target.statistic.value).max() ?? 0)
                demand += entries.reduce(0) { $0 + $1.demand }
                lost += entries.reduce(0) { $0 + $1.rejected + $1.expired }
            }
            let (mean, upper) = Statistics.meanWithUpperBound(waits, level: confidence)
            let share = demand > 0 ? Double(lost) / Double(demand) : 0
            return HourEstimate(hour: hour, taxisOnShift: taxis[hour], demand: Double(demand) / Double(replications),
                                waitMean: mean, waitUpper: upper, lostShare: share,
                                passes: upper <= target.limitS && share <= maxLostShare, measured: measured)
        }
        return Evaluation(scale: scale, hours: hours)
    }

    /// Evaluates the coarse scales, then the fine scales between each hour's last failing and first passing
    /// coarse scale; returns every evaluation, by scale.
    /// - Parameter progress: called after each scale with its evaluation, the scales evaluated and the scales
    ///   planned so far (the coarse ones, then also the fine ones once they are known).
    public func search(jobs: Int, progress: ((_ evaluation: Evaluation, _ done: Int, _ planned: Int) -> Void)? = nil) throws -> [Evaluation] {
        var evaluations: [Evaluation] = []
        for scale in coarseScales.sorted() {
            let evaluation = try evaluate(scale: scale, jobs: jobs)
            progress?(evaluation, evaluations.count + 1, coarseScales.count)
            evaluations.append(evaluation)
        }
        var fine: Set<Double> = []
        for hour in 0..<24 {
            guard let first = evaluations.firstIndex(where: { $0.hours[hour].passes }), first > 0 else { continue }
            var scale = evaluations[first - 1].scale + fineStep
            while scale < evaluations[first].scale - fineStep / 2 {
                fine.insert((scale * 1000).rounded() / 1000)
                scale += fineStep
            }
        }
        for scale in fine.sorted() {
            let evaluation = try evaluate(scale: scale, jobs: jobs)
            progress?(evaluation, evaluations.count + 1, coarseScales.count + fine.count)
            evaluations.append(evaluation)
        }
        return evaluations.sorted { $0.scale < $1.scale }
    }
}
