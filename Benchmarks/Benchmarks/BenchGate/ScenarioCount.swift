// `BenchGate scenario`: one whole simulation of any scenario, counted the way the gate counts its
// workloads (on one thread, inside `citysim_gate_measured_simulation`), so that callgrind gives the
// instructions of a real city's run: deterministic, unlike its wall clock on a shared machine.
// `Scripts/count-instructions.sh` runs it under callgrind and splits the count into set-up, loop and summary.

import CitySim
import Foundation

/// Runs the scenario at `path` with `overrides` (`key.path=value`) once, prints its event count, and writes
/// its output files into `out` when given (to compare two builds' outputs).
func countScenario(path: String, overrides: [String], out: String?) throws {
    let scenario = try Scenario.load(path: path, overrides: overrides)
    let result = try measuredSimulation(scenario)
    print("\(scenario.name): \(result.summary.requests.generated) requests, \(result.summary.engine.events) events")
    if let out { try ResultWriter.write(result, to: URL(fileURLWithPath: out), outputs: .all) }
}
