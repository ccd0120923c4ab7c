import Foundation
import TestSupport
@testable import CitySim

/// Test fixtures for trip replay and OD-matrix demand: a scenario file written with its data files into a
/// fresh temporary folder, then loaded from there (so relative paths resolve as for a real scenario).
enum ReplayFixture {
    /// A 4 × 3 km city of 1 km squares (12 zones, 0–11 row by row), a day and a night shift.
    static func yaml(demand: String, city: String = "", duration: Double = 24) -> String {
        """
        name: replay-test
        duration_hours: \(duration)
        city:
          width_km: 4
          height_km: 3
          zone: { side_km: 1 }
        \(city.isEmpty ? "" : "  " + city)
        demand:
        \(demand.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        fleet:
          shifts:
            - { name: day, start: "06:00", end: "18:00", taxis: 6 }
            - { name: night, start: "18:00", end: "06:00", taxis: 6 }
        """
    }

    /// Writes `files` (name → text) and `scenario.yaml` into a new folder and loads the scenario.
    static func load(_ scenarioYAML: String, files: [String: String], overrides: [String] = []) throws -> Scenario {
        let folder = try ScratchFolders.make("citysim-replay")
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let path = folder.appendingPathComponent("scenario.yaml")
        try scenarioYAML.write(to: path, atomically: true, encoding: .utf8)
        return try Scenario.load(path: path.path, overrides: overrides)
    }

    /// The loader's error for a scenario that must not load.
    static func error(_ scenarioYAML: String, files: [String: String]) -> ScenarioError? {
        do { _ = try load(scenarioYAML, files: files); return nil } catch let error as ScenarioError { return error } catch { return nil }
    }

    /// A demand block replaying `trips.csv` with zone-ID columns named t, PU, DO, plus `extra` keys of `trips`.
    static func zoneDemand(_ extra: String = "") -> String {
        "trips:\n  file: trips.csv\n  columns: { pickup_time: t, origin_zone: PU, destination_zone: DO }"
            + (extra.isEmpty ? "" : "\n  " + extra)
    }

    /// A demand block replaying `trips.csv` with x/y metre columns named t, ox, oy, dx, dy.
    static let metreDemand = """
        trips:
          file: trips.csv
          columns: { pickup_time: t, origin_x_m: ox, origin_y_m: oy, destination_x_m: dx, destination_y_m: dy }
          start: "2024-03-01 00:00:00"
        """
}
