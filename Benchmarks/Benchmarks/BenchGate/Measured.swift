// The measured parts of the gate's workloads, one function each.
//
// callgrind counts only inside these functions: `.ci/bench_gate.py` runs the workload with
// `--collect-atstart=no --toggle-collect=citysim_gate_measured_*`, which switches collection on
// at each entry and off at each return. `@_silgen_name` gives them plain symbol names that
// callgrind can match (it does not demangle Swift), and `@inline(never)` keeps each a real call.
// Everything else — building the fleet or the queue, loading the scenario, drawing positions,
// the unmeasured cancels and checks, freeing the result — is not counted.

import CitySim
import DispatchCore
import BenchFixtures

/// One command handled by the core (one decision; 51 calls make a batch epoch).
@inline(never) @_silgen_name("citysim_gate_measured_decision")
func measuredCommand(_ core: DispatchCore, _ command: Command, at time: Double,
                     into effects: inout [Effect]) throws(DispatchError) {
    try core.handle(command, at: time, into: &effects)
}

/// `pairs` pop + schedule pairs of the hold model.
@inline(never) @_silgen_name("citysim_gate_measured_hold")
func measuredHold(_ state: HoldState, pairs: Int) throws {
    for _ in 0..<pairs {
        let (time, payload) = state.queue.popNext()!
        try state.queue.schedule(payload, at: time + holdDelays[state.next & holdDelayMask])
        state.next &+= 1
    }
}

/// One whole simulation: build it from the loaded scenario and run it (no output files), on one thread.
/// With its helper threads (`usesHelperThreads`) the allocations of the loop's thread depend on how the
/// threads interleave (the heap's layout, hence array capacities), so the counts would not repeat exactly;
/// the helpers do the same work, which the gate counts here on the loop's thread.
@inline(never) @_silgen_name("citysim_gate_measured_simulation")
func measuredSimulation(_ scenario: Scenario) throws -> RunResult { try singleThreadedSimulation(scenario) }

/// `measuredSimulation`'s run, also made unmeasured as a warm-up.
func singleThreadedSimulation(_ scenario: Scenario) throws -> RunResult {
    let simulation = try CitySimulation(scenario: scenario)
    simulation.usesHelperThreads = false
    return try simulation.run()
}
