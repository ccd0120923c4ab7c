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
        let loaded: Scenario
        do { loaded = try Scenario.load(path: scenario, overrides: overrides) } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let seed = self.seed ?? loaded.seed
        let folder = URL(fileURLWithPath: out ?? "Results/runs/\(loaded.name)-seed\(seed)")
        var summaries: [RunSummary] = []
        for replication in 0..<replications {
            let simulation = try CitySimulation(scenario: loaded, seed: seed, replication: replication)
            simulation.showsProgress = true
            simulation.checksInvariants = checkInvariants
            if trace { simulation.tracer = TraceRecorder() }
            var result = try simulation.run()
            result.summary.commit = GitCommit.current
            if checkInvariants, !simulation.invariantProblems.isEmpty {
                printError("invariant violations:\n" + simulation.invariantProblems.prefix(20).joined(separator: "\n"))
                throw ExitCode(3)
            }
            let target = replications == 1 ? folder : folder.appendingPathComponent("replication-\(replication)")
            try ResultWriter.write(result, to: target)
            if let tracer = simulation.tracer {
                try TraceFiles.write(tracer, of: simulation, to: target)
                let megabytes = Double(tracer.bytes.count) / 1e6
                printError("trace: \(tracer.recordCount) records, " + String(format: "%.1f MB (%.2f MB per simulated hour)",
                           megabytes, megabytes / loaded.durationHours) + " → citysim view \(target.path)")
            }
            summaries.append(result.summary)
            printError("\(loaded.name) seed \(seed) replication \(replication): \(result.summary.requests.generated) requests, "
                + "p90 wait \(Int(result.summary.waitS.p90)) s, \(result.summary.engine.events) events in "
                + String(format: "%.2f s", result.summary.engine.wallS) + " → \(target.path)")
        }
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

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The commit the binary runs from, when run inside a git checkout.
enum GitCommit {
    static var current: String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "--short", "HEAD"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
