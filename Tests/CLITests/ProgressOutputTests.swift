import Foundation
import Testing

/// Off a terminal (CI, Slurm logs) progress is plain lines: no carriage returns, no escape codes.
@Suite("citysim progress off a terminal", .enabled(if: CitySimBinary.located != nil, Comment(rawValue: CitySimBinary.missingReason)))
struct ProgressOutputTests {
    let binary = CitySimBinary.located!
    /// Show progress at once and at every update, so a short run writes some.
    let eager = ["CITYSIM_PROGRESS_DELAY": "0", "CITYSIM_PROGRESS_INTERVAL": "0"]

    func expectPlainLines(_ text: String, containing line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains("\r"), "a carriage return in: \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(!text.contains("\u{1B}"), "an escape code in: \(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(text.contains(line), "no progress line \"\(line)\" in: \(text)", sourceLocation: sourceLocation)
    }

    @Test("run --replications writes plain progress lines with an ETA to a pipe")
    func runReplicationsPlainLines() throws {
        let folder = try temporaryFolder("progress-run")
        let outcome = try binary.run(["run", "Scenarios/smoke.yaml", "--set", "duration_hours=0.25", "--set", "warmup_hours=0",
                                      "--replications", "2", "--jobs", "1", "--out", folder.path], environment: eager)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        expectPlainLines(outcome.stderr, containing: "smoke × 2 replications: 50 %")
        expectPlainLines(outcome.stderr, containing: "ETA")
    }

    @Test("sweep writes plain progress lines counting runs to a pipe")
    func sweepPlainLines() throws {
        let folder = try tinyExperimentFolder("progress-sweep", hours: 0.25)
        let outcome = try binary.run(["sweep", "tiny.yaml", "--jobs", "1", "--out", "out"], in: folder, environment: eager)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        expectPlainLines(outcome.stderr, containing: "tiny: 4/4 runs (100 %)")
    }
}
