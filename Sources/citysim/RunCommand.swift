import ArgumentParser
import CommandLineSupport
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

    @Option(help: "Replications run at once (default: the machine's cores).")
    var jobs = defaultParallelJobs

    @Option(help: "Files to write: all (summary.json, rides.csv, drivers.csv, report.html) or summary (summary.json only).")
    var outputs = ResultWriter.Outputs.all

    @Option(name: .customLong("set"), help: "Override a scenario key, e.g. --set city.zone.side_km=2 (repeatable).")
    var overrides: [String] = []

    @Flag(help: "Check the dispatch core's invariants after every event (slow).")
    var checkInvariants = false

    @Flag(help: "Also record the run for the viewer: trace.bin, trace.json and viewer.html (open with `citysim view DIR`).")
    var trace = false

    func validate() throws {
        guard replications >= 1 else { throw ValidationError("--replications must be at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let loaded = try attempt(status: ExitStatus.badInput) { try Scenario.load(path: scenario, overrides: overrides) }
        let seed = self.seed ?? loaded.seed
        if let trips = loaded.demand.trips { printError(trips.readingReport(durationHours: loaded.durationHours)) }
        let folder = URL(fileURLWithPath: out ?? "Results/runs/\(loaded.name)-seed\(seed)")
        // One meter over all replications, in simulated seconds; replications run side by side.
        let meter = ProgressMeter(label: replications == 1 ? loaded.name : "\(loaded.name) × \(replications) replications",
                                  total: Double(replications) * loaded.durationHours * 3600)
        let reached = SimulatedTime(replications: replications)
        let options = self
        let runs: [(summary: RunSummary, line: String)]
        do {
            runs = try parallelMap(replications, jobs: jobs) { replication in
                try options.replicate(replication, of: loaded, seed: seed, into: folder) { time in
                    meter.advance(to: reached.set(replication, to: time))
                }
            }
        } catch {
            meter.clear()
            throw error
        }
        meter.clear()
        for run in runs { printError(run.line) }
        let summaries = runs.map(\.summary)
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

    /// Runs one replication, writes its files, and returns its summary and the line that reports it.
    private func replicate(_ replication: Int, of loaded: Scenario, seed: UInt64, into folder: URL,
                           progress: @escaping (Double) -> Void) throws -> (summary: RunSummary, line: String) {
        let simulation = try attempt(status: ExitStatus.badInput) {
            try CitySimulation(scenario: loaded, seed: seed, replication: replication)
        }
        simulation.progress = { time, _ in progress(time) }
        simulation.checksInvariants = checkInvariants
        if trace { simulation.tracer = TraceRecorder() }
        let target = replications == 1 ? folder : folder.appendingPathComponent("replication-\(replication)")
        func write(_ measured: RunResult, ridesWritten: Bool) throws -> RunResult {
            var result = measured
            result.summary.commit = ToolVersion.recordedCommit
            try attempt("writing \(target.path)", status: ExitStatus.failed) {
                try ResultWriter.write(result, to: target, outputs: outputs, ridesWritten: ridesWritten)
            }
            return result
        }
        var result: RunResult
        if checkInvariants {
            // A run that fails its invariants leaves no files.
            result = try attempt("replication \(replication)", status: ExitStatus.failed) { try simulation.run() }
            if !simulation.invariantProblems.isEmpty {
                throw failure("invariant violations:\n" + simulation.invariantProblems.prefix(20).joined(separator: "\n"),
                              status: ExitStatus.invariantViolated)
            }
            result = try write(result, ridesWritten: false)
        } else {
            // rides.csv is written on a helper thread while the run goes on, its last rows while the summary is
            // computed and the other files written.
            let ridesStream = outputs == .all ? ResultWriter.RidesCSVFile(into: target) : nil
            var written: RunResult?
            result = try attempt("replication \(replication)", status: ExitStatus.failed) {
                try simulation.run(streamingRidesTo: ridesStream) { written = try write($0, ridesWritten: ridesStream != nil) }
            }
            result = written ?? result
        }
        progress(loaded.durationHours * 3600)
        if replications == 1 { KeptUntilExit.keep(simulation) }
        if let tracer = simulation.tracer {
            try attempt("writing \(target.path)", status: ExitStatus.failed) { try TraceFiles.write(tracer, of: simulation, to: target) }
        }
        var line = ""
        if let tracer = simulation.tracer {
            let megabytes = Double(tracer.bytes.count) / 1e6
            line += "trace: \(tracer.recordCount) records, " + String(format: "%.1f MB (%.2f MB per simulated hour)",
                    megabytes, megabytes / loaded.durationHours) + " → citysim view \(target.path)\n"
        }
        line += "\(loaded.name) seed \(seed) replication \(replication): \(result.summary.requests.generated) requests, "
            + "p90 wait \(Int(result.summary.waitS.p90)) s, \(result.summary.engine.events) events in "
            + Fmt.fixed(result.summary.engine.wallS, decimals: 2) + " s → \(target.path)"
        return (result.summary, line)
    }
}

/// The simulated time each replication has reached, summed for one progress meter.
private final class SimulatedTime: @unchecked Sendable {
    private let lock = NSLock()
    private var reached: [Double]

    init(replications: Int) { reached = Array(repeating: 0, count: replications) }

    /// Notes that `replication` reached `time` and returns the total over all replications.
    func set(_ replication: Int, to time: Double) -> Double {
        lock.withLock {
            reached[replication] = time
            return reached.reduce(0, +)
        }
    }
}

/// Objects the process frees by exiting instead of one by one: a single run's simulation, whose records
/// (megacity: 560 MB) took 50 ms to free after the last file was written, with nothing left to do.
/// Runs of several replications free each one as it ends, so their memory does not add up.
///
/// Invariant: only grows, and only before the process exits.
private enum KeptUntilExit {
    nonisolated(unsafe) private static var objects: [AnyObject] = []
    private static let lock = NSLock()

    static func keep(_ object: AnyObject) { lock.withLock { objects.append(object) } }
}
