import Foundation

/// The answer of `plan-fleet`: taxis needed in each hour of the day and a shift plan that provides them.
public struct FleetPlan: Codable, Sendable {
    public var scenario: String
    public var scenarioHash: String
    public var seed: UInt64
    /// The wait target: a statistic of each hour's waits and its limit.
    public var target: WaitTarget
    /// Largest share of an hour's requests lost (rejected or expired).
    public var maxLostShare: Double
    public var replications: Int
    /// Level of the one-sided upper confidence bound on each hour's wait statistic.
    public var confidence: Double
    /// Whole days simulated before the planned day.
    public var warmupDays: Int
    public var method: String
    public var scalesEvaluated: [Double]
    public var hours: [Hour]
    public var shiftPlan: ShiftPlan
    public var evaluations: [FleetPlanner.Evaluation]

    /// One hour of the day: the smallest passing scale's figures (or the largest scale's, when none passes).
    public struct Hour: Codable, Sendable, Equatable {
        public var hour: Int
        public var met: Bool
        /// False for hours inside the warm-up: they take the need of the next measured hour.
        public var measured: Bool
        public var scale: Double
        public var taxisNeeded: Int
        public var demand: Double
        /// Mean over the replications of the target's statistic of the hour's waits.
        public var waitMeanS: Double
        /// Its one-sided upper confidence bound.
        public var waitUpperS: Double
        public var lostShare: Double
    }

    public static let methodNote = "Runs the scenario at a coarse series of fleet.scale values, then a finer series between "
        + "each hour's last failing and first passing coarse scale, each with the same replications (common random numbers). "
        + "Each run simulates the warm-up days (default one) before the planned day and measures only the planned day, so 00:00 "
        + "and the late hours start from a loaded city. "
        + "An hour passes when the one-sided upper confidence bound (Student t, n - 1 degrees of freedom, at the stated level) "
        + "of the target's wait statistic is at most the limit and its lost share "
        + "((rejected + expired) / requests, pooled over replications) is at most the limit; it needs the taxis on shift "
        + "at the hour's midpoint at the smallest scale from which every larger scale tried passes (hours without requests "
        + "need none; warm-up hours take the next hour's need). The whole day is scaled together, so backlogs carry over between hours."

    /// - Throws: `ShiftPlan.Uncoverable` when the allowed shifts leave an hour with need uncovered.
    public init(planner: FleetPlanner, evaluations: [FleetPlanner.Evaluation], shiftHours: Int, shiftStarts: [Int]) throws {
        scenario = planner.scenario.name
        scenarioHash = planner.scenario.canonicalHash
        seed = planner.scenario.seed
        target = planner.target
        maxLostShare = planner.maxLostShare
        replications = planner.replications
        confidence = planner.confidence
        warmupDays = planner.warmupDays
        method = Self.methodNote
        scalesEvaluated = evaluations.map(\.scale)
        self.evaluations = evaluations
        let measured = (0..<24).map { hour in evaluations.contains { $0.hours[hour].measured } }
        var hours: [Hour] = (0..<24).map { hour in
            let simulated = planner.warmupDays > 0 || Double(hour) < planner.scenario.durationHours
            if (measured[hour] || !simulated), evaluations.allSatisfy({ $0.hours[hour].demand == 0 }) {
                return Hour(hour: hour, met: true, measured: measured[hour], scale: 0, taxisNeeded: 0, demand: 0,
                            waitMeanS: 0, waitUpperS: 0, lostShare: 0)
            }
            // The smallest scale from which every larger scale tried passes (robust to a lucky pass).
            let first = evaluations.indices.first { i in evaluations[i...].allSatisfy { $0.hours[hour].passes } }
            let chosen = first.map { evaluations[$0] } ?? evaluations.last!
            let h = chosen.hours[hour]
            return Hour(hour: hour, met: first != nil, measured: measured[hour], scale: chosen.scale, taxisNeeded: h.taxisOnShift,
                        demand: h.demand, waitMeanS: h.waitMean, waitUpperS: h.waitUpper, lostShare: h.lostShare)
        }
        // Hours of the warm-up were not measured: they take the need of the next measured hour.
        for hour in (0..<24).reversed() where !measured[hour] && Double(hour) < planner.simulatedScenario.durationHours {
            if let next = (1..<24).map({ (hour + $0) % 24 }).first(where: { measured[$0] }) {
                hours[hour].taxisNeeded = hours[next].taxisNeeded
                hours[hour].met = hours[next].met
            }
        }
        self.hours = hours
        shiftPlan = try ShiftPlan(need: hours.map(\.taxisNeeded), shiftHours: shiftHours, starts: shiftStarts)
    }

    /// The hourly table for a terminal.
    public var table: String {
        func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        let column = "\(target.statistic.rawValue) wait (mean / \(Fmt.number(confidence * 100)) % upper)"
        var out = "hour  taxis needed  scale  requests  " + column + "  lost share  plan coverage\n"
        for h in hours {
            out += pad(String(format: "%02d", h.hour), 4) + pad(String(h.taxisNeeded) + (h.met ? "" : "*") + (h.measured ? "" : "w"), 14)
                + pad(String(format: "%.2f", h.scale), 7) + pad(String(format: "%.0f", h.demand), 10)
                + pad(String(format: "%.0f s / %.0f s", h.waitMeanS, h.waitUpperS), column.count + 2)
                + pad(String(format: "%.2f %%", h.lostShare * 100), 12) + pad(String(shiftPlan.coverage[h.hour]), 15) + "\n"
        }
        if hours.contains(where: { !$0.measured }) { out += "w warm-up hour, not measured: takes the next hour's need\n" }
        if hours.contains(where: { !$0.met }) { out += "* target not met even at the largest scale tried (\(scalesEvaluated.last ?? 0)); its figures shown\n" }
        out += "shift plan (\(shiftPlan.shiftHours)-hour shifts): "
            + zip(shiftPlan.starts, shiftPlan.taxisByStart).filter { $0.1 > 0 }.map { String(format: "%02d:00 × %d", $0.0, $0.1) }.joined(separator: ", ")
            + " = \(shiftPlan.total) taxis (\(shiftPlan.method))\n"
        return out
    }

    /// Writes `plan.json` and `plan.html` into `directory`.
    public func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try SweepFiles.write(ResultWriter.json(self), to: directory.appendingPathComponent("plan.json"))
        try SweepFiles.write(Data(FleetPlanReport.html(self).utf8), to: directory.appendingPathComponent("plan.html"))
    }
}

/// The plan's HTML page: taxis needed by hour (bars) against the shift plan's coverage (step line), and the table.
enum FleetPlanReport {
    static func html(_ plan: FleetPlan) -> String {
        var out = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<title>citysim plan-fleet · \(SVG.escape(plan.scenario))</title>\n<style>\n\(ReportPage.css)\(SweepReport.css)</style>\n</head>\n<body>\n<main>\n"
        out += "<section id=\"summary\" class=\"card wide\">\n<h1>Fleet plan: \(SVG.escape(plan.scenario))</h1>\n"
        out += "<p>Target: \(plan.target.statistic.rawValue) wait ≤ \(Fmt.duration(plan.target.limitS)) (one-sided upper "
            + "\(Fmt.number(plan.confidence * 100)) % confidence bound over \(plan.replications) replications) and lost requests "
            + "(rejected or expired) ≤ \(Fmt.percent(plan.maxLostShare)) in every hour; \(plan.warmupDays) warm-up day(s) simulated before the planned day. "
            + "Scenario hash \(plan.scenarioHash), seed \(plan.seed).</p>\n"
        out += "<p class=\"note\">\(SVG.escape(plan.method))</p>\n"
        out += "<p class=\"note\">Shift plan: \(SVG.escape(plan.shiftPlan.method)). "
            + zip(plan.shiftPlan.starts, plan.shiftPlan.taxisByStart).filter { $0.1 > 0 }
                .map { String(format: "%02d:00 × %d", $0.0, $0.1) }.joined(separator: ", ")
            + " = \(plan.shiftPlan.total) taxis in \(plan.shiftPlan.shiftHours)-hour shifts.</p>\n</section>\n"
        out += chart(plan)
        out += "<section class=\"card wide\">\n<h2>By hour</h2>\n<table class=\"points\">\n<tr><th>hour</th><th>taxis needed</th><th>scale</th>"
            + "<th>requests</th><th>\(plan.target.statistic.rawValue) wait (mean)</th><th>\(plan.target.statistic.rawValue) wait "
            + "(one-sided \(Fmt.number(plan.confidence * 100)) % upper bound)</th><th>lost share</th><th>plan coverage</th></tr>\n"
        for h in plan.hours {
            out += "<tr><td>\(h.hour)</td><td>\(h.taxisNeeded)\(h.met ? "" : " (not met)")</td><td>\(Fmt.number(h.scale))</td><td>\(Fmt.number(h.demand))</td>"
                + "<td>\(Fmt.duration(h.waitMeanS))</td><td>\(Fmt.duration(h.waitUpperS))</td><td>\(Fmt.percent(h.lostShare))</td>"
                + "<td>\(plan.shiftPlan.coverage[h.hour])</td></tr>\n"
        }
        out += "</table>\n</section>\n</main>\n</body>\n</html>\n"
        return out
    }

    static func chart(_ plan: FleetPlan) -> String {
        let frame = PlotFrame(width: 760, height: 320)
        let x = frame.xScale(0, 24)
        let band = x(1) - x(0)
        let (top, step) = LinearScale.niceTop(Double(max(plan.hours.map(\.taxisNeeded).max() ?? 0, plan.shiftPlan.coverage.max() ?? 0)))
        let y = frame.yScale(0, top)
        var svg = SVG.open(width: frame.width, height: frame.height, label: "Taxis needed by hour and the shift plan's coverage")
        svg += frame.yAxis(y, ticks: LinearScale.ticks(top: top, step: step), label: "taxis on shift")
        svg += frame.bars(plan.hours.map { Double($0.taxisNeeded) }, x: { x(Double($0)) }, band: band, y: y, fill: "#a9c4e0",
                          titles: { h in "hour \(h): \(plan.hours[h].taxisNeeded) taxis needed, coverage \(plan.shiftPlan.coverage[h])" })
        var steps: [(x: Double, y: Double)?] = []
        for h in 0..<24 {
            steps.append((x(Double(h)), y(Double(plan.shiftPlan.coverage[h]))))
            steps.append((x(Double(h + 1)), y(Double(plan.shiftPlan.coverage[h]))))
        }
        svg += SVG.polyline(steps, stroke: ReportCharts.orange, width: 2.5)
        svg += frame.xAxis((0..<24).map { (x(Double($0) + 0.5), String($0)) }, label: "hour of the day")
        svg += SVG.legend([("taxis needed", "#a9c4e0"), ("shift plan coverage", ReportCharts.orange)], x: frame.left + 8, y: 14)
        svg += SVG.close
        return ReportPage.section(id: "need", title: "Taxis needed by hour vs the shift plan",
                                  note: "Bars: the smallest on-shift fleet meeting the target in each hour. Line: taxis on shift under the shift plan.",
                                  svg: svg)
    }
}
