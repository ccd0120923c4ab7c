import Foundation
@testable import CitySim

/// The smallest valid scenario; tests append or replace lines to probe one rule at a time.
let minimalScenarioYAML = """
    name: minimal
    city:
      width_km: 4
      height_km: 3
      zone: { side_km: 1 }
    demand:
      requests_per_hour: 60
    fleet:
      shifts:
        - { name: day, start: "06:00", end: "14:00", taxis: 5 }
        - { name: night, start: "22:00", end: "06:00", taxis: 2 }
    """

/// Loads YAML text as file `test.yaml`.
func loadScenario(_ yaml: String, overrides: [String] = []) throws(ScenarioError) -> Scenario {
    try Scenario.load(yaml: yaml, file: "test.yaml", overrides: overrides)
}

/// The error loading `yaml` throws, or nil when it loads.
func scenarioError(_ yaml: String, overrides: [String] = []) -> ScenarioError? {
    do {
        _ = try loadScenario(yaml, overrides: overrides)
        return nil
    } catch {
        return error
    }
}

/// `Scenarios/` of the package, found from this file's path.
let scenariosDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")
