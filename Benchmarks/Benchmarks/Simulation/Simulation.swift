// Whole simulations of bundled scenarios through CitySim, as `citysim run` does
// (without writing any output): Scenario.load, CitySimulation(scenario:), run().
//
// - "smoke.yaml run": Scenarios/smoke.yaml as it is (4 × 4 km, 60 taxis, 2 h at 300 requests/h).
// - "smoke.yaml reservation-heavy": the same city over 4 h with demand.reservations.share=0.8
//   and meeting times 2–2.5 h ahead, so most reservations are allocated and served in the run.
//
// Loading the YAML is outside the measurement; building and running the simulation is inside.

import Benchmark
import BenchFixtures
import CitySim
import Foundation

func simulationBenchmark(_ name: String, overrides: [String]) {
    Benchmark(name) { benchmark in
        do {
            let scenario = try Scenario.load(path: smokeScenarioPath, overrides: overrides)
            benchmark.startMeasurement()
            let result = try CitySimulation(scenario: scenario).run()
            benchmark.stopMeasurement()
            blackHole(result)
        } catch {
            benchmark.error("\(error)")
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(5),
        maxIterations: 200
    )
    simulationBenchmark("smoke.yaml run", overrides: [])
    simulationBenchmark("smoke.yaml reservation-heavy (share 0.8, 4 h)",
                        overrides: reservationHeavyOverrides)
}
