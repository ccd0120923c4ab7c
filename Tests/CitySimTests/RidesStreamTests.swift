import Foundation
import RoadNetwork
import TestSupport
import Testing
@testable import CitySim

/// `run(streamingRidesTo:then:)`: the rides handed to a stream while the run goes on are the run's final
/// rows, each once and in id order; `rides.csv` written that way is the file written after the run; the
/// other files are written while the last rows still are; and either side's failure is the run's.
@Suite struct RidesStreamTests {
    /// Rush hour has what changes a request after it is made: declines, timeouts, cancellations, patience
    /// running out, reservations held for hours, reassignments.
    /// Its reservations are booked up to 12 hours ahead and hold back every later row until they end, so a
    /// day's rows are mostly handed during the run only when the day is long enough: 24 hours.
    static func rushHour() throws -> Scenario { try SimulationRunTests.scenario("rush-hour.yaml") }

    @Test func everyRideIsHandedOnceInOrderAndOnlyOnceItCanNoLongerChange() throws {
        let scenario = try Self.rushHour()
        let stream = RecordingStream()
        let streaming = try CitySimulation(scenario: scenario, seed: 5)
        streaming.ridesHandInterval = 1  // seal and hand after every event, each written before the loop goes on
        streaming.ridesHandBatch = 1
        streaming.handsRidesInLockstep = true
        let result = try streaming.run(streamingRidesTo: stream)
        #expect(stream.batches.first?.lowerBound == 0)
        #expect(zip(stream.batches, stream.batches.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(stream.rows.count == result.rides.count)
        // A row handed before its request ended would differ from the row the run ends with.
        let firstDifference = zip(stream.rows, result.rides).first { $0 != $1 }
        #expect(firstDifference == nil)
        let duringTheLoop = stream.batches.dropLast().last?.upperBound ?? 0
        #expect(duringTheLoop > result.rides.count / 3, "rides handed while the run went on, not only at its end")
        #expect(stream.finished == [true])
        let alone = try CitySimulation(scenario: scenario, seed: 5).run()
        #expect(result.summary.withoutTimings == alone.summary.withoutTimings)
    }

    @Test func ridesStreamedDuringTheRunAreTheRidesWrittenAfter() throws {
        let scenario = try Self.rushHour()
        let folder = try ScratchFolders.make("citysim-streamed")
        let during = try CitySimulation(scenario: scenario, seed: 3).run(streamingRidesTo: ResultWriter.RidesCSVFile(into: folder))
        try ResultWriter.write(during, to: folder, ridesWritten: true)
        let after = try CitySimulation(scenario: scenario, seed: 3).run()
        let written = try String(contentsOf: folder.appendingPathComponent("rides.csv"), encoding: .utf8)
        #expect(written.split(separator: "\n").count == after.rides.count + 1)
        #expect(written == ResultWriter.ridesCSV(after))
        #expect(during.summary.withoutTimings == after.summary.withoutTimings)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("rides.csv.partial").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("drivers.csv").path))
    }

    @Test func aRidesFileThatIsNotCompleteIsRemoved() throws {
        let folder = try ScratchFolders.make("citysim-streamed-void")
        let file = ResultWriter.RidesCSVFile(into: folder)
        let rides = try CitySimulation(scenario: SimulationRunTests.scenario("smoke.yaml"), seed: 3).run().rides
        try file.start(roads: nil)
        try file.write(rides, 0..<10)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("rides.csv.partial").path))
        try file.finish(complete: false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aRidesFileThatCannotBeMadeNamesItsPathBeforeTheRunStarts() throws {
        let folder = try ScratchFolders.make("citysim-streamed-blocked")
        let blocker = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: blocker)
        let simulation = try CitySimulation(scenario: SimulationRunTests.scenario("smoke.yaml"), seed: 3)
        let error = #expect(throws: ResultWriter.RidesCSVFile.WriteError.self) {
            _ = try simulation.run(streamingRidesTo: ResultWriter.RidesCSVFile(into: blocker))
        }
        #expect(error?.path == blocker.appendingPathComponent("rides.csv.partial").path)
        #expect(error.map { "\($0)" }?.hasPrefix("writing \(blocker.path)/rides.csv.partial: ") == true)
        #expect(simulation.eventCount == 0)  // refused before the loop
    }

    @Test func theStreamsFailureIsTheRunsAfterTheSummaryIsDone() throws {
        let stream = RecordingStream()
        stream.failAfter = 2
        var summarised = false
        let streaming = try CitySimulation(scenario: Self.rushHour(), seed: 3)
        streaming.ridesHandBatch = 64
        streaming.handsRidesInLockstep = true
        #expect(throws: RecordingStream.DiskFull.self) {
            _ = try streaming.run(streamingRidesTo: stream) { _ in summarised = true }
        }
        #expect(summarised)
        #expect(stream.batches.count == 3)  // nothing written after the write that threw
        #expect(stream.finished == [false])
    }

    @Test func theOtherFilesAreWrittenWhileTheLastRidesAreStillBeingWritten() throws {
        let stream = RecordingStream(), thenRan = DispatchSemaphore(value: 0)
        // Without the overlap, `then` would run only after the stream finished: this waits 10 s in vain.
        stream.onFinish = { stream.sawThenFirst = thenRan.wait(timeout: .now() + 10) == .success }
        var summaryHandedOn: RunSummary?
        let result = try CitySimulation(scenario: SimulationRunTests.scenario("smoke.yaml"), seed: 3)
            .run(streamingRidesTo: stream) { result in
                summaryHandedOn = result.summary
                thenRan.signal()
            }
        #expect(stream.sawThenFirst)
        #expect(summaryHandedOn?.withoutTimings == result.summary.withoutTimings)
    }

    @Test func aFailureOfTheOtherFilesIsTheRunsOnceTheRidesAreWritten() throws {
        struct DiskFull: Error {}
        let stream = RecordingStream()
        stream.onFinish = { Thread.sleep(forTimeInterval: 0.2) }
        #expect(throws: DiskFull.self) {
            _ = try CitySimulation(scenario: SimulationRunTests.scenario("smoke.yaml"), seed: 3)
                .run(streamingRidesTo: stream) { _ in throw DiskFull() }
        }
        #expect(stream.finished == [true])  // the stream had finished when the run threw
    }
}

/// A stream that keeps what it is handed, as rows made on its own thread when they are handed.
private final class RecordingStream: RideRowsStream, @unchecked Sendable {
    struct DiskFull: Error {}
    var rows: [RunResult.RideRow] = []
    var batches: [Range<Int>] = []
    var finished: [Bool] = []
    /// Throws on the write after this many batches.
    var failAfter = Int.max
    var onFinish: () -> Void = {}
    var sawThenFirst = false

    func start(roads: RoadGraph?) throws {}

    func write(_ rows: RunResult.RideRows, _ batch: Range<Int>) throws {
        if batches.count == failAfter { batches.append(batch); throw DiskFull() }
        batches.append(batch)
        self.rows += batch.map { rows[$0] }
    }

    func finish(complete: Bool) throws {
        onFinish()
        finished.append(complete)
    }
}
