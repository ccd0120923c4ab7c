import Foundation
import Testing
@testable import CitySim

@Suite("Sweep runs, shards and merge")
struct SweepRunTests {
    @Test("two shards merged give the same sweep.csv, points.csv, sweep.json and report.html as a local run")
    func shardedThenMergedEqualsLocal() throws {
        let experiment = try tinyExperiment()
        let local = try temporaryFolder("local"), shard0 = try temporaryFolder("shard0")
        let shard1 = try temporaryFolder("shard1"), merged = try temporaryFolder("merged")
        _ = try SweepRunner(experiment: experiment, directory: local).run(jobs: 2)
        try SweepResults.load(from: [local]).write(to: local)
        let first = try SweepRunner(experiment: experiment, directory: shard0).run(jobs: 1, shard: Shard(index: 0, count: 2))
        let second = try SweepRunner(experiment: experiment, directory: shard1).run(jobs: 2, shard: Shard(index: 1, count: 2))
        #expect(first.ran == 4 && second.ran == 4)
        #expect(!FileManager.default.fileExists(atPath: shard0.appendingPathComponent("sweep.csv").path))
        try SweepResults.load(from: [shard0, shard1]).write(to: merged)
        for file in ["sweep.csv", "points.csv", "sweep.json", "report.html"] {
            let a = try Data(contentsOf: local.appendingPathComponent(file))
            let b = try Data(contentsOf: merged.appendingPathComponent(file))
            #expect(a == b, "\(file) differs")
        }
        let csv = try String(contentsOf: local.appendingPathComponent("sweep.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 8)
        #expect(!csv.contains("wall"))
    }

    @Test("one shard alone cannot be merged: the missing runs are named")
    func mergeNeedsEveryRun() throws {
        let folder = try temporaryFolder("half")
        _ = try SweepRunner(experiment: try tinyExperiment(), directory: folder).run(jobs: 2, shard: Shard(index: 1, count: 2))
        #expect { try SweepResults.load(from: [folder]) } throws: { "\($0)".contains("4 of 8 runs missing (0, 2, 4, 6)") }
    }

    @Test("a rerun skips finished runs and redoes missing or corrupt ones")
    func resumeSkipsFinishedRuns() throws {
        let experiment = try tinyExperiment()
        let folder = try temporaryFolder("resume")
        let runner = try SweepRunner(experiment: experiment, directory: folder)
        #expect(try runner.run(jobs: 2).ran == 8)
        let untouched = SweepFiles.record(folder, 5)
        let stamp = try FileManager.default.attributesOfItem(atPath: untouched.path)[.modificationDate] as! Date
        try FileManager.default.removeItem(at: SweepFiles.record(folder, 3))
        try Data("{ \"run_index\": 6".utf8).write(to: SweepFiles.record(folder, 6))
        #expect(runner.pending().map(\.index) == [3, 6])
        let again = try runner.run(jobs: 2)
        #expect(again.ran == 2 && again.skipped == 6)
        #expect(try FileManager.default.attributesOfItem(atPath: untouched.path)[.modificationDate] as! Date == stamp)
        #expect(try runner.run(jobs: 2).ran == 0)
        _ = try SweepResults.load(from: [folder])
    }

    @Test("a run record of another grid point is not accepted as finished")
    func foreignRecordIsRedone() throws {
        let folder = try temporaryFolder("foreign")
        let runner = try SweepRunner(experiment: try tinyExperiment(), directory: folder)
        _ = try runner.run(jobs: 2)
        try FileManager.default.removeItem(at: SweepFiles.record(folder, 2))
        try FileManager.default.copyItem(at: SweepFiles.record(folder, 4), to: SweepFiles.record(folder, 2))
        #expect(runner.pending().map(\.index) == [2])
    }

    @Test("grid points share customers: replication r has the same demand at every point (common random numbers)")
    func commonRandomNumbersAcrossPoints() throws {
        let folder = try temporaryFolder("crn")
        _ = try SweepRunner(experiment: try tinyExperiment(), directory: folder).run(jobs: 2)
        let results = try SweepResults.load(from: [folder])
        for replication in 0..<2 {
            let generated = Set((0..<4).map { results.records[$0 * 2 + replication].summary.requests.generated })
            #expect(generated.count == 1)
        }
    }
}
