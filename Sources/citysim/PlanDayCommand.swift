import ArgumentParser
import CommandLineSupport
import CitySim
import Foundation
import TripPlanner

/// `citysim plan-day DAY.yaml`: plan one user's day with the trip planner.
struct PlanDayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan-day",
        abstract: "Plan a day of appointments: travel means per trip, flexible activities placed, warnings.")

    @Argument(help: "The day file (YAML), e.g. Scenarios/days/example-day.yaml.")
    var day: String

    @Option(help: "What the planner minimises over the day.")
    var criterion: Criterion = .fastest

    @Flag(help: "Print the plan as one JSON object instead of the table.")
    var json = false

    @Option(help: "Also write the plan as JSON to this file (default: Results/runs/days/NAME-CRITERION.json).")
    var out: String?

    func run() throws {
        let file = try attempt(status: ExitStatus.badInput) { try DayFile.load(path: day) }
        let started = Date()
        let plan = file.planner.plan(file.appointments, criterion: criterion)
        let elapsed = Date().timeIntervalSince(started)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(plan)
        let name = URL(fileURLWithPath: day).deletingPathExtension().lastPathComponent
        let target = URL(fileURLWithPath: out ?? "Results/runs/days/\(name)-\(criterion.rawValue).json")
        try attempt("writing \(target.path)", status: ExitStatus.failed) {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        }
        if json {
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(plan.table())
            printError("planned in \(Int(elapsed * 1000)) ms → \(target.path)")
        }
    }
}
