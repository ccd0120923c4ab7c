import Foundation
import TestSupport
import Testing
@testable import CitySim

/// `run(alongsideSummary:then:)`: `rides.csv` written on a second thread while the summary is computed and
/// the other files written is the file the run writes afterwards, and either side's failure is the run's.
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
            _ = try CitySimulation(scenario: scenario, seed: 3).run(alongsideSummary: { rides, _ in
                handed.count = rides.count
                throw DiskFull()
            })
        }
        #expect(handed.count > 0)
    }

    @Test func theOtherFilesAreWrittenWhileTheRidesAreStillBeingWritten() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let handed = Handed(), thenRan = DispatchSemaphore(value: 0)
        var summaryHandedOn: RunSummary?
        let result = try CitySimulation(scenario: scenario, seed: 3).run(alongsideSummary: { _, _ in
            // Without the overlap, `then` would run only after this returns: this waits 10 s in vain.
            handed.sawThenFirst = thenRan.wait(timeout: .now() + 10) == .success
        }, then: { result in
            summaryHandedOn = result.summary
            thenRan.signal()
        })
        #expect(handed.sawThenFirst)
        #expect(summaryHandedOn?.withoutTimings == result.summary.withoutTimings)
    }

    @Test func aFailureOfTheOtherFilesIsTheRunsOnceTheRidesAreWritten() throws {
        struct DiskFull: Error {}
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let handed = Handed()
        #expect(throws: DiskFull.self) {
            _ = try CitySimulation(scenario: scenario, seed: 3).run(alongsideSummary: { rides, _ in
                Thread.sleep(forTimeInterval: 0.2)
                handed.count = rides.count
            }, then: { _ in throw DiskFull() })
        }
        #expect(handed.count > 0)  // the rides' writer had finished when the run threw
    }
}

/// What the writer under test was handed.
private final class Handed: @unchecked Sendable {
    var count = 0
    var sawThenFirst = false
}
