import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// The run trace for the viewer: it records what the run did, in time order, without changing
/// the run, and the same seed gives the same bytes.
@Suite("Run trace")
struct TraceRecorderTests {
    static func tracedRun(seed: UInt64 = 3) throws -> (CitySimulation, RunResult, [TraceRecord]) {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", ["duration_hours=1"])
        let simulation = try CitySimulation(scenario: scenario, seed: seed)
        simulation.tracer = TraceRecorder()
        let result = try simulation.run()
        return (simulation, result, TraceRecord.read(simulation.tracer!.bytes))
    }

    @Test("a record is 16 bytes and reads back as written")
    func recordsRoundTrip() {
        let record = TraceRecord(time: 3_601.5, kind: .taxi, state: TraceRecord.TaxiState.onRide.rawValue, id: 12_345,
                                 x: TraceRecord.metres(2_999.6), y: TraceRecord.metres(-4))
        var bytes: [UInt8] = []
        record.write(into: &bytes)
        #expect(bytes.count == TraceRecord.size)
        #expect(TraceRecord.read(bytes) == [record])
        #expect(record.x == 3_000 && record.y == 0)
        #expect(TraceRecord.metres(1e9) == 65_535)
    }

    @Test("tracing does not change the run")
    func tracingChangesNothing() throws {
        let (_, traced, _) = try Self.tracedRun()
        let plain = try CitySimulation(scenario: try SimulationRunTests.scenario("smoke.yaml", ["duration_hours=1"]), seed: 3).run()
        #expect(ResultWriter.ridesCSV(traced) == ResultWriter.ridesCSV(plain))
    }

    @Test("the trace holds every request, its outcome, and taxis only when they change, in time order")
    func theTraceFollowsTheRun() throws {
        let (simulation, result, records) = try Self.tracedRun()
        #expect(records.count == simulation.tracer!.recordCount && !records.isEmpty)
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
        let appeared = records.filter { $0.kind == .request }
        #expect(appeared.count == result.rides.count)
        let completed = Set(records.filter { $0.kind == .requestState && $0.state == TraceRecord.RequestState.completed.rawValue }.map(\.id))
        #expect(completed == Set(result.rides.filter { $0.outcome == "served" }.map { UInt32($0.id) }))
        var last: [UInt32: TraceRecord] = [:]
        for taxi in records where taxi.kind == .taxi {
            #expect(taxi.x <= 4_000 && taxi.y <= 4_000)
            if let before = last[taxi.id] { #expect(before.state != taxi.state || before.x != taxi.x || before.y != taxi.y) }
            last[taxi.id] = taxi
        }
        #expect(last.count == simulation.drivers.count)  // every taxi started its shift
        // A served ride's taxi is on ride from the pickup point: its on_ride record stands at the origin.
        let ride = try #require(result.rides.first { $0.outcome == "served" })
        let pickup = try #require(records.first { $0.kind == .requestState && $0.id == UInt32(ride.id)
            && $0.state == TraceRecord.RequestState.pickedUp.rawValue })
        let onRide = try #require(records.first { $0.kind == .taxi && $0.id == UInt32(ride.driver!)
            && $0.state == TraceRecord.TaxiState.onRide.rawValue && $0.time == pickup.time })
        #expect(onRide.x == TraceRecord.metres(ride.originX) && onRide.y == TraceRecord.metres(ride.originY))
    }

    @Test("the same seed gives the same trace bytes; another seed another trace")
    func tracesAreDeterministic() throws {
        let (first, _, _) = try Self.tracedRun(seed: 5)
        let (second, _, _) = try Self.tracedRun(seed: 5)
        let (other, _, _) = try Self.tracedRun(seed: 6)
        #expect(first.tracer!.bytes == second.tracer!.bytes)
        #expect(first.tracer!.bytes != other.tracer!.bytes)
    }

    @Test("the run folder gets the trace, its description and the viewer")
    func theFilesAreWritten() throws {
        let (simulation, _, _) = try Self.tracedRun()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-trace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try TraceFiles.write(simulation.tracer!, of: simulation, to: folder)
        let bytes = try Data(contentsOf: folder.appendingPathComponent("trace.bin"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let meta = try decoder.decode(TraceFiles.Meta.self, from: Data(contentsOf: folder.appendingPathComponent("trace.json")))
        #expect(meta.records * meta.recordBytes == bytes.count)
        #expect(meta.taxis == 60 && meta.horizonS == 3_600 && meta.city.columns == 4 && meta.city.width == 4_000)
        let page = try String(contentsOf: folder.appendingPathComponent("viewer.html"), encoding: .utf8)
        #expect(page.contains("const RECORD_BYTES = \(TraceRecord.size)"))
    }
}
