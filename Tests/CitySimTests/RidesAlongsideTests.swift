import Foundation
import TestSupport
import Testing
@testable import CitySim

/// `run(alongsideSummary:)`: `rides.csv` written on a second thread while the summary is computed is the
/// file the run writes afterwards, and the writer's failure is the run's.
@Suite struct RidesAlongsideTests {
    @Test func ridesWrittenAlongsideTheSummaryAreTheRidesWrittenAfter() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let folder = try ScratchFolders.make("citysim-alongside")
        let during = try CitySimulation(scenario: scenario, seed: 3).run(alongsideSummary: ResultWriter.ridesCSVWriter(into: folder))
        try ResultWriter.write(during, to: folder, ridesWritten: true)
        let after = try CitySimulation(scenario: scenario, seed: 3).run()
        let written = try String(contentsOf: folder.appendingPathComponent("rides.csv"), encoding: .utf8)
        #expect(written.split(separator: "\n").count == after.rides.count + 1)
        #expect(written == ResultWriter.ridesCSV(after))
        #expect(during.summary.withoutTimings == after.summary.withoutTimings)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("drivers.csv").path))
    }

    @Test func theWritersFailureIsTheRunsAfterTheSummaryIsDone() throws {
        struct DiskFull: Error {}
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let handed = Handed()
        #expect(throws: DiskFull.self) {
            _ = try CitySimulation(scenario: scenario, seed: 3).run { rides, _ in
                handed.count = rides.count
                throw DiskFull()
            }
        }
        #expect(handed.count > 0)
    }
}

/// What the writer under test was handed.
private final class Handed: @unchecked Sendable {
    var count = 0
}
