import Foundation
import Testing
@testable import ServiceLoad

/// Per-endpoint aggregation: HDR percentiles, throughput, errors by status.
@Suite struct LoadReportTests {
    @Test func percentilesComeFromTheHistogramInMilliseconds() {
        var stats = EndpointStats()
        for micros in 1...100 { stats.record(microseconds: UInt64(micros) * 1000, status: 201) }  // 1 … 100 ms
        let line = LoadReport(mode: "burst", seconds: 10, concurrency: 1, endpoints: ["POST /v1/rides": stats]).endpoints[0]
        #expect(line.count == 100)
        #expect(line.throughputPerS == 10)
        #expect(abs(line.p50Ms - 50) < 0.1)
        #expect(abs(line.p90Ms - 90) < 0.1)
        #expect(abs(line.p99Ms - 99) < 0.1)
        #expect(abs(line.maxMs - 100) < 0.1)
        #expect(line.errors.isEmpty)
    }

    @Test func errorsAreCountedByStatusAndUnansweredCallsStayOutOfTheLatencies() {
        var stats = EndpointStats()
        stats.record(microseconds: 2_000, status: 200)
        stats.record(microseconds: 3_000, status: 409)
        stats.record(microseconds: 3_000, status: 409)
        stats.record(microseconds: 60_000_000, status: 0)  // no answer: counted, not timed
        let line = LoadReport(mode: "scenario", seconds: 1, concurrency: 1, endpoints: ["GET /v1/driver": stats]).endpoints[0]
        #expect(line.count == 4)
        #expect(line.errors == ["409": 2, "0": 1])
        #expect(line.maxMs < 3.1)
    }

    @Test func theRecorderKeepsOneLinePerRouteTemplateAndMergesAcrossTasks() async {
        let recorder = LatencyRecorder()
        await withTaskGroup(of: Void.self) { group in
            for id in 0..<50 {
                group.addTask { recorder.record("GET /v1/rides/{id}", microseconds: UInt64(1000 + id), status: 200) }
            }
        }
        recorder.record("POST /v1/rides", microseconds: 500, status: 201)
        let snapshot = recorder.snapshot()
        #expect(snapshot.keys.sorted() == ["GET /v1/rides/{id}", "POST /v1/rides"])
        #expect(snapshot["GET /v1/rides/{id}"]?.calls == 50)
        var merged = snapshot["GET /v1/rides/{id}"]!
        merged.merge(snapshot["POST /v1/rides"]!)
        #expect(merged.calls == 51)
        #expect(merged.histogram.totalCount == 51)
    }

    @Test func theReportIsATableAndSnakeCaseJSON() throws {
        var stats = EndpointStats()
        stats.record(microseconds: 1500, status: 201)
        let report = LoadReport(mode: "burst", seconds: 1, concurrency: 500, endpoints: ["POST /v1/rides": stats],
                                notes: ["url": "http://127.0.0.1:1"])
        #expect(report.table.contains("POST /v1/rides"))
        let json = String(decoding: try report.json(), as: UTF8.self)
        #expect(json.contains("\"p99_ms\""))
        #expect(json.contains("\"throughput_per_s\""))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(LoadReport.self, from: try report.json()) == report)
    }
}
