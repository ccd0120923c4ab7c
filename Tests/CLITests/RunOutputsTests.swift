import Foundation
import Testing

/// `citysim run --outputs` and parallel `--replications`: the files a run writes, and answers that
/// do not depend on how many replications ran at once.
@Suite("citysim run outputs and parallel replications", .enabled(if: CitySimBinary.located != nil, Comment(rawValue: CitySimBinary.missingReason)))
struct RunOutputsTests {
    let binary = CitySimBinary.located!
    let shortSmoke = ["run", "Scenarios/smoke.yaml", "--set", "duration_hours=1", "--set", "warmup_hours=0"]

    func files(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    @Test("--outputs summary writes summary.json and no per-ride files")
    func summaryOutputsWriteOnlyTheSummary() throws {
        let summaryOnly = try temporaryFolder("outputs-summary"), all = try temporaryFolder("outputs-all")
        let short = try binary.run(shortSmoke + ["--outputs", "summary", "--out", summaryOnly.path])
        let full = try binary.run(shortSmoke + ["--out", all.path])
        #expect(short.status == 0 && full.status == 0, "\(short.stderr)\(full.stderr)")
        #expect(try files(in: summaryOnly) == ["summary.json"])
        #expect(try files(in: all) == ["summary.json", "rides.csv", "drivers.csv", "report.html"])
    }

    @Test("the run's line on standard error gives the summary's requests, p90 wait, events and loop seconds (%.2f)")
    func theRunLineGivesTheSummarysFigures() throws {
        let folder = try temporaryFolder("outputs-line")
        let outcome = try binary.run(shortSmoke + ["--outputs", "summary", "--out", folder.path])
        #expect(outcome.status == 0 && outcome.stdout.isEmpty, "\(outcome.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appendingPathComponent("summary.json"))) as? [String: Any])
        let requests = try #require((summary["requests"] as? [String: Any])?["generated"] as? Int)
        let p90 = try #require((summary["wait_s"] as? [String: Any])?["p90"] as? Double)
        let engine = try #require(summary["engine"] as? [String: Any])
        let events = try #require(engine["events"] as? Int), wall = try #require(engine["wall_s"] as? Double)
        let line = "smoke seed 1 replication 0: \(requests) requests, p90 wait \(Int(p90)) s, \(events) events in "
            + String(format: "%.2f s", wall) + " → \(folder.path)\n"
        #expect(outcome.stderr.hasSuffix(line), "\(outcome.stderr)")
    }

    @Test("--outputs names its choices when given a bad one")
    func badOutputsIsAUsageError() throws {
        let outcome = try binary.run(shortSmoke + ["--outputs", "rides", "--out", try temporaryFolder("outputs-bad").path])
        #expect(outcome.status == 64, "\(outcome.status): \(outcome.stderr)")
        #expect(outcome.stderr.contains("--outputs") && outcome.stderr.contains("summary"), "\(outcome.stderr)")
    }

    @Test("replications run side by side give the same summaries as one after another")
    func parallelReplicationsMatchSerialOnes() throws {
        let serial = try temporaryFolder("replications-serial"), parallel = try temporaryFolder("replications-parallel")
        let one = try binary.run(shortSmoke + ["--replications", "3", "--jobs", "1", "--outputs", "summary", "--out", serial.path])
        let three = try binary.run(shortSmoke + ["--replications", "3", "--jobs", "3", "--outputs", "summary", "--out", parallel.path])
        #expect(one.status == 0 && three.status == 0, "\(one.stderr)\(three.stderr)")
        for replication in 0..<3 {
            let name = "replication-\(replication)/summary.json"
            let a = try figures(serial.appendingPathComponent(name)), b = try figures(parallel.appendingPathComponent(name))
            #expect(a == b, "replication \(replication) differs")
            #expect(a.contains("\"replication\":\(replication)"), "replication \(replication) is not in its own folder")
        }
        // The report lists the replications in order, whichever finished first.
        let lines = three.stderr.split(separator: "\n").filter { $0.contains("replication ") && $0.contains("requests") }
        #expect(lines.map { $0.contains("replication \(lines.firstIndex(of: $0)!):") } == [true, true, true], "\(lines)")
    }

    /// A summary without its timings (wall time, events per second) and commit, as canonical JSON.
    func figures(_ file: URL) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        object["engine"] = nil
        object["commit"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
