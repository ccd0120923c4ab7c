import ArgumentParser
import CommandLineSupport
import CitySim
import Foundation

/// `citysim plan-fleet SCENARIO.yaml --target "p90 wait <= 300 s" --max-lost 2%`.
struct PlanFleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan-fleet",
        abstract: "For each hour of the day, the smallest fleet meeting a wait target and a loss limit, and a shift plan providing it.",
        discussion: FleetPlan.methodNote)

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: "Wait target: mean, p50, p90, p95 or p99 of each hour's waits and a limit, e.g. \"p90 wait <= 300 s\", \"mean wait <= 4 min\".")
    var target = WaitTarget(statistic: .p90, limitS: 300)

    @Option(help: "Largest share of requests lost (rejected or expired) in any hour, e.g. 2% or 0.02 (default 2%).")
    var maxLost: Share?

    @Option(help: ArgumentHelp("Deprecated alias of --max-lost (it always counted expired requests too).", visibility: .hidden))
    var maxReject: Share?

    @Option(help: "Replications per fleet scale (at least 2, for a confidence bound).")
    var replications = 5

    @Option(help: "Level of the one-sided upper confidence bound on each hour's wait statistic, in (0.5, 1).")
    var confidence = 0.95

    @Option(help: "Whole days simulated before the planned day, which alone is measured.")
    var warmupDays = 1

    @Option(help: "Coarse fleet.scale values, comma-separated numbers >= 0.")
    var scales = ScaleList(argument: "0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2")!

    @Option(help: "Step of the finer scales tried between a failing and a passing coarse scale.")
    var fineStep = 0.05

    @Option(help: "Shift length in hours for the shift plan.")
    var shiftHours = 8

    @Option(help: "Allowed shift start hours 0-23, comma-separated (default: every hour).")
    var shiftStarts: HourList?

    @Option(name: .customLong("set"), help: "Override a scenario key (repeatable).")
    var overrides: [String] = []

    @Option(help: "Runs simulated at the same time (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Output folder for plan.json and plan.html (default: Results/plans/NAME).")
    var out: String?

    func validate() throws {
        guard (1...24).contains(shiftHours) else { throw ValidationError("--shift-hours must be in 1...24") }
        guard replications >= 2 else { throw ValidationError("--replications must be at least 2 for a confidence bound") }
        guard confidence > 0.5, confidence < 1 else { throw ValidationError("--confidence must be in (0.5, 1) (a one-sided upper bound)") }
        guard warmupDays >= 0 else { throw ValidationError("--warmup-days must be >= 0") }
        guard fineStep > 0 else { throw ValidationError("--fine-step must be positive") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if maxLost != nil && maxReject != nil { throw ValidationError("give --max-lost only (--max-reject is its old name)") }
    }

    func run() throws {
        if maxReject != nil { printError("warning: --max-reject is deprecated; it limits lost requests (rejected + expired): use --max-lost") }
        let wait = target, lost = (maxLost ?? maxReject ?? Share(argument: "2%")!).fraction
        let starts = shiftStarts?.hours ?? Array(0..<24)
        let loaded = try attempt(status: ExitStatus.badInput) { try Scenario.load(path: scenario, overrides: overrides) }
        let planner = FleetPlanner(scenario: loaded, target: wait, maxLostShare: lost, replications: replications,
                                   confidence: confidence, coarseScales: scales.values, fineStep: fineStep, warmupDays: warmupDays)
        let started = Date()
        printError("\(loaded.name): target \(wait) (one-sided \(confidence * 100) % upper bound), lost <= \(lost * 100) %, "
                   + "\(replications) replications per scale, \(warmupDays) warm-up day(s)")
        let meter = ProgressMeter(label: "\(loaded.name) fleet scales", total: Double(scales.values.count), unit: "scales", delay: 0)
        let evaluations = try attempt(status: ExitStatus.failed) {
            try planner.search(jobs: jobs) { evaluation, done, planned in
                meter.clear()
                let passing = evaluation.hours.filter(\.passes).count
                printError("scale \(evaluation.scale): \(passing)/24 hours meet the target")
                meter.setTotal(Double(planned))
                meter.advance(to: Double(done))
            }
        }
        meter.finish()
        let plan = try attempt(status: ExitStatus.failed) {
            try FleetPlan(planner: planner, evaluations: evaluations, shiftHours: shiftHours, shiftStarts: starts)
        }
        let folder = URL(fileURLWithPath: out ?? "Results/plans/\(loaded.name)")
        try attempt("writing \(folder.path)", status: ExitStatus.failed) { try plan.write(to: folder) }
        print("Method: " + FleetPlan.methodNote)
        print(plan.table, terminator: "")
        printError(String(format: "%d scales × %d replications in %.1f s → %@", evaluations.count, replications,
                          Date().timeIntervalSince(started), folder.appendingPathComponent("plan.json").path))
    }
}
