import Foundation
import Testing

/// `--version` and the `commit` of summaries come from the build, not from the folder the tool runs in.
@Suite("citysim version and build commit", .enabled(if: CitySimBinary.located != nil, Comment(rawValue: CitySimBinary.missingReason)))
struct BuildStampTests {
    let binary = CitySimBinary.located!

    /// The stamp `--version` prints: a 12-digit commit (maybe `-dirty`), or `unknown`.
    func versionCommit() throws -> String {
        let outcome = try binary.run(["--version"])
        #expect(outcome.status == 0)
        let line = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let match = try #require(line.wholeMatch(of: /citysim \d+\.\d+\.\d+ \(commit ([0-9a-f]{12}(?:-dirty)?|unknown)\)/),
                                 "unexpected --version output: \(line)")
        return String(match.1)
    }

    @Test("--version names the commit of the checkout the binary was built in")
    func versionNamesTheBuildCommit() throws {
        let commit = try versionCommit()
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", CitySimBinary.packageRoot.path, "rev-parse", "--short=12", "HEAD"]
        let pipe = Pipe()
        git.standardOutput = pipe
        git.standardError = FileHandle.nullDevice
        guard (try? git.run()) != nil else { return }
        git.waitUntilExit()
        guard git.terminationStatus == 0 else { return }  // not a git checkout: the stamp is `unknown`, matched above
        let head = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(commit.hasPrefix(head), "built from \(commit), the checkout is at \(head)")
    }

    @Test("run records the build's commit in summary.json even when run outside any git checkout")
    func runRecordsTheBuildCommit() throws {
        let commit = try versionCommit()
        let folder = try temporaryFolder("outside-git")   // under /tmp: `git rev-parse` would fail here
        let scenario = CitySimBinary.packageRoot.appendingPathComponent("Scenarios/smoke.yaml").path
        let outcome = try binary.run(["run", scenario, "--set", "duration_hours=0.25", "--set", "warmup_hours=0",
                                      "--out", folder.appendingPathComponent("out").path, "--json"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        if commit == "unknown" {
            #expect(summary["commit"] == nil)
        } else {
            #expect(summary["commit"] as? String == commit)
        }
    }
}
