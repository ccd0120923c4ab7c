import Foundation

/// The fixed matrix of `citysim bench`: a base scenario with `demand.scale` ×
/// each demand factor crossed with `fleet.scale` × each fleet factor.
///
/// Each cell runs in a process of its own (`runCell` in the child, the parent
/// collects), so one cell's heap never inflates the next one's peak memory.
public struct BenchMatrix: Sendable {
    public var scenarioPath: String
    /// Overrides applied to the base scenario before the factors (e.g. `duration_hours=6`).
    public var baseOverrides: [String]
    public var demandFactors: [Double]
    public var fleetFactors: [Double]

    /// The full matrix: 1×, 10× and 100× for both factors.
    public static let fullFactors: [Double] = [1, 10, 100]
    /// `--quick`: 1× and 10× only.
    public static let quickFactors: [Double] = [1, 10]

    public init(scenarioPath: String, baseOverrides: [String], demandFactors: [Double], fleetFactors: [Double]) {
        self.scenarioPath = scenarioPath
        self.baseOverrides = baseOverrides
        self.demandFactors = demandFactors
        self.fleetFactors = fleetFactors
    }

    /// Every (demand, fleet) pair, smallest first (so a cell too slow to run rules out the larger ones).
    public var pairs: [(demand: Double, fleet: Double)] {
        demandFactors.flatMap { d in fleetFactors.map { f in (d, f) } }.sorted { $0.demand * $0.fleet < $1.demand * $1.fleet }
    }

    /// The overrides of one cell. The base scenario's own scales are multiplied, not replaced.
    public func overrides(demand: Double, fleet: Double, base: Scenario) -> [String] {
        baseOverrides + ["demand.scale=\(base.demand.scale * demand)", "fleet.scale=\(base.fleet.scale * fleet)"]
    }

    /// Runs one cell in this process and measures it: the simulation only (no result files), then
    /// this process's peak resident set. Call it in a fresh process (`citysim bench --cell D:F`).
    public func runCell(demand: Double, fleet: Double) throws -> BenchCell {
        let base = try Scenario.load(path: scenarioPath, overrides: baseOverrides)
        let scenario = try Scenario.load(path: scenarioPath, overrides: overrides(demand: demand, fleet: fleet, base: base))
        let simulation = try CitySimulation(scenario: scenario)
        let cpuBefore = BenchMachine.processCPUSeconds()
        let result = try simulation.run()
        let cpu = BenchMachine.processCPUSeconds() - cpuBefore
        return BenchCell(demandFactor: demand, fleetFactor: fleet, summary: result.summary,
                         taxisConfigured: scenario.fleet.totalTaxis, cpuS: cpu, peakRssMebibytes: BenchMachine.peakResidentMiB() ?? 0)
    }
}
