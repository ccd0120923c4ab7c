import ArgumentParser
import CommandLineSupport
import CitySim
import Foundation

/// `citysim sweep EXPERIMENT.yaml`: a grid of scenario variants × replications, in parallel, resumable, shardable.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run an experiment (base scenario × grid × replications) and write sweep.csv, points.csv, sweep.json, report.html.",
        discussion: """
        Each finished run is written to OUT/runs/<run-index>.json; running the same command again skips finished runs.
        With --shard i/n only the runs with run-index % n == i are run and only runs/*.json is written;
        combine the shards with `citysim merge`.
        """)

    @Argument(help: "The experiment file (YAML).")
    var experiment: String

    @Option(help: "Runs simulated at the same time (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Output folder (default: Results/experiments/NAME).")
    var out: String?

    @Option(help: "Run only the slice i/n of the runs (run-index % n == i, 0 <= i < n), e.g. --shard 0/4.")
    var shard: Shard?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let loaded = try attempt(status: ExitStatus.badInput) { try Experiment.load(path: experiment) }
        var runner = try attempt(status: ExitStatus.badInput) {
            try SweepRunner(experiment: loaded, directory: URL(fileURLWithPath: out ?? "Results/experiments/\(loaded.name)"))
        }
        runner.commit = ToolVersion.recordedCommit
        let slice = shard ?? .all
        let total = loaded.runs.count
        printError("\(loaded.name): \(loaded.points.count) grid points × \(loaded.replications) replications = \(total) runs"
            + (slice == .all ? "" : ", shard \(slice) (\(loaded.runs.filter(slice.contains).count) runs)")
            + ", \(jobs) jobs → \(runner.directory.path)")
        let meter = ProgressMeter(label: loaded.name + (slice == .all ? "" : " shard \(slice)"), total: 0, unit: "runs")
        let outcome = try attempt(status: ExitStatus.failed) {
            try runner.run(jobs: jobs, shard: slice) { done, todo in
                meter.setTotal(Double(todo))
                meter.advance(to: Double(done))
            }
        }
        meter.finish()
        printError("ran \(outcome.ran) runs, skipped \(outcome.skipped) already finished, in "
            + String(format: "%.1f s", outcome.wallSeconds))
        guard slice == .all else {
            printError("shard \(slice) done; combine the shards with: citysim merge --out DIR SHARD_DIRS...")
            return
        }
        let results = try attempt(status: ExitStatus.incomplete) { try SweepResults.load(from: [runner.directory]) }
        try attempt("writing \(runner.directory.path)", status: ExitStatus.failed) { try results.write(to: runner.directory) }
        printSummary(results, folder: runner.directory)
    }
}

/// `citysim merge`: the tables and report of a sweep from its shards' folders.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the runs/*.json of sweep shards into sweep.csv, points.csv, sweep.json and report.html.")

    @Argument(help: "Shard output folders (each with experiment.json and runs/).")
    var directories: [String]

    @Option(help: "Output folder (default: the first folder given).")
    var out: String?

    func validate() throws {
        guard !directories.isEmpty else { throw ValidationError("give at least one shard folder") }
    }

    func run() throws {
        let results: SweepResults
        do { results = try SweepResults.load(from: directories.map { URL(fileURLWithPath: $0) }) } catch let problem as SweepResults.Problem {
            // Runs missing: the shards are not all done (a Slurm dependency must not go on). Else: not a sweep.
            throw failure(problem.description, status: problem.isIncomplete ? ExitStatus.incomplete : ExitStatus.badInput)
        } catch {
            throw failure("\(error)", status: ExitStatus.badInput)
        }
        let folder = URL(fileURLWithPath: out ?? directories[0])
        try attempt("writing \(folder.path)", status: ExitStatus.failed) { try results.write(to: folder) }
        printSummary(results, folder: folder)
    }
}

/// Prints where the files went and the best grid point.
func printSummary(_ results: SweepResults, folder: URL) {
    let y = results.experiment.plot.y
    let best = results.best(for: y)
    let e = results.estimate(point: best, metric: y)
    let values = zip(results.experiment.grid, results.experiment.points[best].values).map { "\($0.key)=\($1)" }.joined(separator: ", ")
    printError("best for \(y): point \(best) (\(values)): \(String(format: "%.4g", e.mean)) ± \(String(format: "%.2g", e.ci95HalfWidth))")
    printError("wrote sweep.csv, points.csv, sweep.json, report.html → \(folder.path)")
}
