import ArgumentParser
import CitySim
import Foundation

/// `citysim run SCENARIO.yaml`: one scenario, one seed (or N replications).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run one scenario and write summary.json, rides.csv, drivers.csv and report.html.")

    @Argument(help: "The scenario file (YAML).")
    var scenario: String

    @Option(help: "Seed (default: the scenario's).")
    var seed: UInt64?

    @Option(help: "Output folder (default: Results/runs/NAME-seedN).")
    var out: String?

    @Flag(help: "Print exactly one JSON object, the run summary, on standard output.")
    var json = false

    @Option(help: "Run N replications (independent random streams) and report means with 95% confidence intervals.")
    var replications = 1

    @Option(name: .customLong("set"), help: "Override a scenario key, e.g. --set city.zone.side_km=2 (repeatable).")
    var overrides: [String] = []

    @Flag(help: "Check the dispatch core's invariants after every event (slow).")
    var checkInvariants = false

    @Flag(help: "Also record the run for the viewer: trace.bin, trace.json and viewer.html (open with `citysim view DIR`).")
    var trace = false

    func validate() throws {
        guard replications >= 1 else { throw ValidationError("--replications must be at least 1") }
    }

    func run() throws {
        let loaded = try attempt(status: ExitStatus.badInput) { try Scenario.load(path: scenario, overrides: overrides) }
        let seed = self.seed ?? loaded.seed
        let folder = URL(fileURLWithPath: out ?? "Results/runs/\(loaded.name)-seed\(seed)")
        var summaries: [RunSummary] = []
        // One meter over all replications, in simulated seconds.
        let meter = ProgressMeter(label: replications == 1 ? loaded.name : "\(loaded.name) × \(replications) replications",
                                  total: Double(replications) * loaded.durationHours * 3600)
        for replication in 0..<replications {
            let simulation = try attempt(status: ExitStatus.badInput) {
                try CitySimulation(scenario: loaded, seed: seed, replication: replication)
            }
            simulation.progress = { time, horizon in meter.advance(to: Double(replication) * horizon + time) }
            simulation.checksInvariants = checkInvariants
            if trace { simulation.tracer = TraceRecorder() }
            var result = try attempt("replication \(replication)", status: ExitStatus.failed) { try simulation.run() }
            meter.advance(to: Double(replication + 1) * loaded.durationHours * 3600)
            result.summary.commit = ToolVersion.recordedCommit
            if checkInvariants, !simulation.invariantProblems.isEmpty {
                meter.clear()
                throw failure("invariant violations:\n" + simulation.invariantProblems.prefix(20).joined(separator: "\n"),
                              status: ExitStatus.invariantViolated)
            }
            let target = replications == 1 ? folder : folder.appendingPathComponent("replication-\(replication)")
            try attempt("writing \(target.path)", status: ExitStatus.failed) {
                try ResultWriter.write(result, to: target)
                if let tracer = simulation.tracer { try TraceFiles.write(tracer, of: simulation, to: target) }
            }
            meter.clear()
            if let tracer = simulation.tracer {
                let megabytes = Double(tracer.bytes.count) / 1e6
                printError("trace: \(tracer.recordCount) records, " + String(format: "%.1f MB (%.2f MB per simulated hour)",
                           megabytes, megabytes / loaded.durationHours) + " → citysim view \(target.path)")
            }
            summaries.append(result.summary)
            printError("\(loaded.name) seed \(seed) replication \(replication): \(result.summary.requests.generated) requests, "
                + "p90 wait \(Int(result.summary.waitS.p90)) s, \(result.summary.engine.events) events in "
                + String(format: "%.2f s", result.summary.engine.wallS) + " → \(target.path)")
        }
        meter.finish()
        if replications == 1 {
            if json { print(String(decoding: try ResultWriter.json(summaries[0]), as: UTF8.self)) }
        } else {
            let aggregate = ReplicationSummary(summaries)
            let data = try ResultWriter.json(aggregate)
            try data.write(to: folder.appendingPathComponent("replications.json"))
            if json { print(String(decoding: data, as: UTF8.self)) } else { printError(aggregate.table) }
        }
    }
}
