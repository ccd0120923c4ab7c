import Foundation
import Testing
import TestSupport
@testable import CitySim

/// A tiny experiment on the smoke scenario: 1-hour horizon, 2 × 2 grid, 2 replications (8 runs).
func tinyExperiment(replications: Int = 2) throws -> Experiment {
    let yaml = """
    name: tiny
    scenario: smoke.yaml
    replications: \(replications)
    set: ["duration_hours=1", "warmup_hours=0"]
    grid:
      city.zone.side_km: [1, 2]
      dispatch.policy: [zone-fifo, nearest-idle]
    metrics: [wait_s.p90, wait_s.mean, reject_share, served]
    """
    return try Experiment.load(yaml: yaml, file: "tiny.yaml", folder: scenariosDirectory)
}

/// A fresh empty folder under the temporary directory, removed when the test process exits.
func temporaryFolder(_ label: String) throws -> URL { try ScratchFolders.make("citysim-\(label)") }

@Suite("Sweep experiment files")
struct SweepExperimentTests {
    @Test("an experiment file reads its keys, resolves the scenario and defaults the plot")
    func readsExperiment() throws {
        let experiment = try tinyExperiment()
        #expect(experiment.name == "tiny")
        #expect(experiment.scenarioPath.hasSuffix("Scenarios/smoke.yaml"))
        #expect(experiment.grid.map(\.key) == ["city.zone.side_km", "dispatch.policy"])
        #expect(experiment.grid[0].values == ["1", "2"])
        #expect(experiment.plot == Experiment.Plot(x: "city.zone.side_km", y: "wait_s.p90", lines: "dispatch.policy", panels: nil))
    }

    @Test("an unknown key is an error naming the file and the key path")
    func unknownKeyIsAnError() {
        let yaml = "name: bad\nscenario: smoke.yaml\nplot: { x: fleet.scale, colour: red }\ngrid: { fleet.scale: [1] }\n"
        #expect {
            _ = try Experiment.load(yaml: yaml, file: "bad.yaml", folder: scenariosDirectory)
        } throws: { error in
            let error = error as! ScenarioError
            return error.file == "bad.yaml" && error.keyPath == "plot.colour" && error.line == 3
                && error.reason.contains("unknown key 'colour'")
        }
    }

    @Test("an unknown metric lists the known ones")
    func unknownMetricIsAnError() {
        let yaml = "name: bad\nscenario: smoke.yaml\nmetrics: [wait_s.p90, wait_s.p91]\n"
        #expect {
            _ = try Experiment.load(yaml: yaml, file: "bad.yaml", folder: scenariosDirectory)
        } throws: { error in
            let error = error as! ScenarioError
            return error.keyPath == "metrics[1]" && error.reason.contains("unknown metric 'wait_s.p91'")
        }
    }

    @Test("a grid key outside the scenario schema fails before any run, naming the override")
    func badGridKeyFailsEarly() throws {
        let yaml = "name: bad\nscenario: smoke.yaml\ngrid: { fleet.sclae: [1, 2] }\n"
        let experiment = try Experiment.load(yaml: yaml, file: "bad.yaml", folder: scenariosDirectory)
        #expect {
            _ = try SweepRunner(experiment: experiment, directory: FileManager.default.temporaryDirectory)
        } throws: { error in
            "\(error)".contains("fleet.sclae=1") && "\(error)".contains("unknown key 'sclae'")
        }
    }

    @Test("the grid is the cartesian product, first key varying slowest, runs point-major")
    func gridExpansion() throws {
        let yaml = "name: g\nscenario: smoke.yaml\nreplications: 2\ngrid:\n  a: [1, 2]\n  b: [x, y, z]\n"
        let experiment = try Experiment.load(yaml: yaml, file: "g.yaml", folder: scenariosDirectory)
        #expect(experiment.points.map(\.values) == [["1", "x"], ["1", "y"], ["1", "z"], ["2", "x"], ["2", "y"], ["2", "z"]])
        #expect(experiment.runs.count == 12)
        #expect(experiment.runs[7] == Experiment.Run(index: 7, point: 3, replication: 1))
        #expect(experiment.overrides(for: experiment.points[4]) == ["a=2", "b=y"])
    }

    @Test("flow values in the grid become override text")
    func flowValues() throws {
        let yaml = "name: f\nscenario: smoke.yaml\ngrid:\n  demand.patience: [{kind: zero}, {kind: exponential, mean_s: 60}]\n  fleet.shifts[0].start: [\"07:00\"]\n"
        let experiment = try Experiment.load(yaml: yaml, file: "f.yaml", folder: scenariosDirectory)
        #expect(experiment.grid[0].values == ["{kind: zero}", "{kind: exponential, mean_s: 60}"])
        #expect(experiment.grid[1].values == ["\"07:00\""])
        #expect(Experiment.label("\"07:00\"") == "07:00")
    }

    @Test("shards i/n partition the runs: every run in exactly one shard", arguments: [1, 2, 3, 5, 8])
    func shardsPartitionRuns(count: Int) throws {
        let runs = try tinyExperiment(replications: 3).runs
        var seen = Array(repeating: 0, count: runs.count)
        for i in 0..<count {
            for run in runs where Shard(index: i, count: count).contains(run) { seen[run.index] += 1 }
        }
        #expect(seen.allSatisfy { $0 == 1 })
        #expect(Shard("1/4") == Shard(index: 1, count: 4))
        #expect(Shard("4/4") == nil && Shard("x/2") == nil && Shard("0/0") == nil)
    }
}
