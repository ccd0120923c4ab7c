import ArgumentParser
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
    var target = "p90 wait <= 300 s"

    @Option(help: "Largest share of requests lost (rejected or expired) in any hour, e.g. 2% (default 2%).")
    var maxLost: String?

    @Option(help: ArgumentHelp("Deprecated alias of --max-lost (it always counted expired requests too).", visibility: .hidden))
    var maxReject: String?

    @Option(help: "Replications per fleet scale.")
    var replications = 5

    @Option(help: "Level of the one-sided upper confidence bound on each hour's wait statistic, in (0.5, 1).")
    var confidence = 0.95

    @Option(help: "Whole days simulated before the planned day, which alone is measured.")
    var warmupDays = 1

    @Option(help: "Coarse fleet.scale values, comma-separated.")
    var scales = "0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2"

    @Option(help: "Step of the finer scales tried between a failing and a passing coarse scale.")
    var fineStep = 0.05

    @Option(help: "Shift length in hours for the shift plan.")
    var shiftHours = 8

    @Option(help: "Allowed shift start hours, comma-separated (default: every hour).")
    var shiftStarts: String?

    @Option(name: .customLong("set"), help: "Override a scenario key (repeatable).")
    var overrides: [String] = []

    @Option(help: "Runs simulated at the same time (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Output folder for plan.json and plan.html (default: Results/plans/NAME).")
    var out: String?

    func run() throws {
        let wait: WaitTarget
        do { wait = try WaitTarget(parsing: target) } catch { throw ValidationError("--target: \(error)") }
        if maxLost != nil && maxReject != nil { throw ValidationError("give --max-lost only (--max-reject is its old name)") }
        if maxReject != nil { printError("warning: --max-reject is deprecated; it limits lost requests (rejected + expired): use --max-lost") }
        let lostText = maxLost ?? maxReject ?? "2%"
        let flag = maxReject != nil ? "--max-reject" : "--max-lost"
        guard let lost = FleetPlanner.parseShare(lostText) else { throw ValidationError("cannot read \(flag) '\(lostText)': give a share in 0–100 %, e.g. 2% or 0.02") }
        let coarse = scales.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !coarse.isEmpty, coarse.allSatisfy({ $0 >= 0 }) else { throw ValidationError("--scales needs numbers >= 0") }
        let starts = try shiftStarts.map { text in
            try text.split(separator: ",").map { part in
                guard let hour = Int(part.trimmingCharacters(in: .whitespaces)), (0..<24).contains(hour) else {
                    throw ValidationError("--shift-starts needs hours 0-23")
                }
                return hour
            }
        } ?? Array(0..<24)
        guard (1...24).contains(shiftHours) else { throw ValidationError("--shift-hours must be in 1...24") }
        guard replications >= 2 else { throw ValidationError("--replications must be at least 2 for a confidence bound") }
        guard confidence > 0.5, confidence < 1 else { throw ValidationError("--confidence must be in (0.5, 1) (a one-sided upper bound)") }
        guard warmupDays >= 0 else { throw ValidationError("--warmup-days must be >= 0") }
        let loaded: Scenario
        do { loaded = try Scenario.load(path: scenario, overrides: overrides) } catch {
            throw CleanExit.message("error: \(error)")
        }
        let planner = FleetPlanner(scenario: loaded, target: wait, maxLostShare: lost, replications: replications,
                                   confidence: confidence, coarseScales: coarse, fineStep: fineStep, warmupDays: warmupDays)
        let started = Date()
        printError("\(loaded.name): target \(wait) (one-sided \(confidence * 100) % upper bound), lost <= \(lost * 100) %, "
                   + "\(replications) replications per scale, \(warmupDays) warm-up day(s)")
        let evaluations = try planner.search(jobs: jobs) { evaluation in
            let passing = evaluation.hours.filter(\.passes).count
            printError("scale \(evaluation.scale): \(passing)/24 hours meet the target")
        }
        let plan = try FleetPlan(planner: planner, evaluations: evaluations, shiftHours: shiftHours, shiftStarts: starts)
        let folder = URL(fileURLWithPath: out ?? "Results/plans/\(loaded.name)")
        try plan.write(to: folder)
        print("Method: " + FleetPlan.methodNote)
        print(plan.table, terminator: "")
        printError(String(format: "%d scales × %d replications in %.1f s → %@", evaluations.count, replications,
                          Date().timeIntervalSince(started), folder.appendingPathComponent("plan.json").path))
    }
}
