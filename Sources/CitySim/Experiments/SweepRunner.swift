import Foundation

/// Runs the (shard of the) runs of an experiment in parallel, writing each finished run to
/// `runs/<run-index>.json`; runs whose file already holds a valid record are skipped (resume).
///
/// ```swift
/// let runner = try SweepRunner(experiment: try Experiment.load(path: "zone-size.yaml"), directory: out)
/// let outcome = try runner.run(jobs: 2)        // then SweepResults.load(from: [out]).write(to: out)
/// ```
public struct SweepRunner: Sendable {
    public let experiment: Experiment
    public let directory: URL
    public let manifest: SweepManifest
    let scenarios: [Scenario]
    /// Recorded in every summary (`commit`), when known.
    public var commit: String?

    /// What a call of `run` did.
    public struct Outcome: Sendable {
        public var ran: Int, skipped: Int
        public var wallSeconds: Double
    }

    /// Loads and validates every grid point's scenario.
    /// - Throws: `ScenarioError` for a grid point the scenario loader rejects.
    public init(experiment: Experiment, directory: URL) throws(ScenarioError) {
        self.experiment = experiment
        self.directory = directory
        var scenarios: [Scenario] = []
        for point in experiment.points { scenarios.append(try experiment.scenario(for: point)) }
        self.scenarios = scenarios
        manifest = SweepManifest(experiment: experiment, pointHashes: scenarios.map(\.canonicalHash),
                                 pointSeeds: scenarios.map(\.seed))
    }

    /// The runs of `shard` that have no valid record yet.
    public func pending(_ shard: Shard = .all) -> [Experiment.Run] {
        experiment.runs.filter { run in
            guard shard.contains(run) else { return false }
            guard let record = SweepRecord.read(SweepFiles.record(directory, run.index)) else { return true }
            return !manifest.accepts(record, for: run)
        }
    }

    /// Runs the pending runs of `shard` on `jobs` threads.
    ///
    /// - Parameters:
    ///   - jobs: runs simulated at the same time (each `CitySimulation` owns its random streams).
    ///   - shard: the slice to run (`runIndex % count == index`).
    ///   - progress: called (from worker threads) after each finished run with the runs finished and to do.
    /// - Returns: how many runs ran and how many were already done.
    /// - Throws: the first error of a run (the other workers stop taking new runs).
    public func run(jobs: Int, shard: Shard = .all, progress: (@Sendable (_ done: Int, _ todo: Int) -> Void)? = nil) throws -> Outcome {
        let started = Date()
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(SweepFiles.runs),
                                                withIntermediateDirectories: true)
        try SweepFiles.write(ResultWriter.json(manifest), to: directory.appendingPathComponent(SweepFiles.manifest))
        let inShard = experiment.runs.filter(shard.contains).count
        let todo = pending(shard)
        let queue = WorkQueue(todo)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, todo.count)) {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                while let run = queue.next() {
                    do {
                        let record = try self.simulate(run)
                        try record.write(to: SweepFiles.record(directory, run.index))
                        let done = queue.finished()
                        progress?(done, todo.count)
                    } catch {
                        queue.fail(error)
                    }
                }
            }
            thread.stackSize = 16 << 20
            thread.start()
        }
        group.wait()
        if let error = queue.error { throw error }
        return Outcome(ran: todo.count, skipped: inShard - todo.count, wallSeconds: Date().timeIntervalSince(started))
    }

    /// Simulates one run.
    func simulate(_ run: Experiment.Run) throws -> SweepRecord {
        let scenario = scenarios[run.point]
        let simulation = try CitySimulation(scenario: scenario, seed: scenario.seed, replication: run.replication)
        var result = try simulation.run()
        result.summary.commit = commit
        return SweepRecord(runIndex: run.index, point: run.point, keys: experiment.grid.map(\.key),
                           values: experiment.points[run.point].values, replication: run.replication,
                           seed: scenario.seed, summary: result.summary)
    }
}

/// The runs still to do, shared by the worker threads.
private final class WorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: ArraySlice<Experiment.Run>
    private var done = 0
    private(set) var error: Error?

    init(_ runs: [Experiment.Run]) { self.runs = runs[...] }

    func next() -> Experiment.Run? {
        lock.withLock { error == nil ? runs.popFirst() : nil }
    }

    func finished() -> Int { lock.withLock { done += 1; return done } }

    func fail(_ error: Error) { lock.withLock { if self.error == nil { self.error = error } } }
}
