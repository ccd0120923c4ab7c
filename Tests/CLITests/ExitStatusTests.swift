import Foundation
import Testing

/// Each command's main error: the status it exits with, `error:` on standard error, nothing on standard output.
@Suite("citysim exit statuses and error messages", .enabled(if: CitySimBinary.located != nil, Comment(rawValue: CitySimBinary.missingReason)))
struct ExitStatusTests {
    let binary = CitySimBinary.located!

    /// Pins a failed command: `status`, stderr containing every one of `messages`, stdout empty.
    func expectFailure(_ arguments: [String], status: Int32, _ messages: String..., in directory: URL = CitySimBinary.packageRoot,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let outcome = try binary.run(arguments, in: directory)
        #expect(outcome.status == status, "exit status of citysim \(arguments.joined(separator: " ")); stderr: \(outcome.stderr)",
                sourceLocation: sourceLocation)
        for message in messages {
            #expect(outcome.stderr.contains(message), "stderr lacks \"\(message)\": \(outcome.stderr)", sourceLocation: sourceLocation)
        }
        #expect(outcome.stdout.isEmpty, "stdout should be empty: \(outcome.stdout)", sourceLocation: sourceLocation)
    }

    @Test("run: a missing scenario file exits 2 naming the file")
    func runMissingScenario() throws {
        try expectFailure(["run", "no-such-scenario.yaml"], status: 2, "error: ", "no-such-scenario.yaml")
    }

    @Test("run: a scenario with an unknown key exits 2 naming the key")
    func runBadScenario() throws {
        let folder = try temporaryFolder("bad-scenario")
        try "name: x\ndurration_hours: 2\n".write(to: folder.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        try expectFailure(["run", folder.appendingPathComponent("bad.yaml").path], status: 2, "error: ", "durration_hours")
    }

    @Test("run: a bundled service config exits 2 saying it is a service config for citysim serve", arguments: ["Service/service.yaml", "Service/service-load.yaml"])
    func runServiceConfig(config: String) throws {
        try expectFailure(["run", config], status: 2, "error: ", config,
                          "this is a service config (for citysim serve --config), not a scenario")
    }

    @Test("sweep: a missing experiment file exits 2 naming the file")
    func sweepMissingExperiment() throws {
        try expectFailure(["sweep", "no-such-experiment.yaml"], status: 2, "error: ", "no-such-experiment.yaml")
    }

    @Test("sweep: a malformed --shard is a usage error (64) naming the option")
    func sweepBadShard() throws {
        try expectFailure(["sweep", "Scenarios/experiments/zone-size.yaml", "--shard", "4/4"], status: 64, "--shard", "4/4")
    }

    @Test("merge: a folder that is not a sweep exits 2")
    func mergeNotASweep() throws {
        let folder = try temporaryFolder("not-a-sweep")
        try expectFailure(["merge", folder.path], status: 2, "error: ", "not a sweep folder")
    }

    @Test("merge: one shard of two exits 1 and names the missing runs")
    func mergeMissingRuns() throws {
        let folder = try tinyExperimentFolder("half-sweep", hours: 0.5)
        let shard = folder.appendingPathComponent("shard1")
        let ran = try binary.run(["sweep", "tiny.yaml", "--shard", "1/2", "--jobs", "1", "--out", shard.path], in: folder)
        #expect(ran.status == 0, "the shard itself runs: \(ran.stderr)")
        try expectFailure(["merge", shard.path], status: 1, "error: ", "2 of 4 runs missing (0, 2)")
    }

    @Test("plan-fleet: a missing scenario exits 2, an unreadable --target is a usage error (64)")
    func planFleetErrors() throws {
        try expectFailure(["plan-fleet", "no-such-scenario.yaml"], status: 2, "error: ", "no-such-scenario.yaml")
        try expectFailure(["plan-fleet", "Scenarios/smoke.yaml", "--target", "fast please"], status: 64, "--target", "fast please")
        try expectFailure(["plan-fleet", "Scenarios/smoke.yaml", "--max-reject", "120%"], status: 64, "--max-reject")
    }

    @Test("plan-day: a missing day file exits 2, an unknown --criterion is a usage error listing the choices")
    func planDayErrors() throws {
        try expectFailure(["plan-day", "no-such-day.yaml"], status: 2, "error: ", "no-such-day.yaml")
        try expectFailure(["plan-day", "Scenarios/days/example-day.yaml", "--criterion", "slowest"], status: 64,
                          "--criterion", "slowest", "fastest", "cheapest", "greenest")
    }

    @Test("load: an unknown --mode is a usage error listing scenario and burst")
    func loadBadMode() throws {
        try expectFailure(["load", "Scenarios/smoke.yaml", "--mode", "storm"], status: 64, "--mode", "storm", "scenario", "burst")
    }

    @Test("--help of plan-day lists the criteria")
    func helpListsChoices() throws {
        let outcome = try binary.run(["plan-day", "--help"])
        #expect(outcome.status == 0)
        let words = outcome.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // help wraps lines
        #expect(words.contains("(values: fastest, cheapest, greenest; default: fastest)"), "\(outcome.stdout)")
    }

    @Test("serve: a config whose GTFS feed is a corrupt archive exits 2 naming the archive, the entry and why")
    func serveBadFeed() throws {
        let folder = try temporaryFolder("bad-feed")
        let root = CitySimBinary.packageRoot.path
        try """
            scenario: \(root)/Scenarios/smoke.yaml
            database: \(folder.path)/service.sqlite
            host: 127.0.0.1
            port: 18998
            admin: { email: admin@example.com, password: admin-password }
            planner: { gtfs: \(root)/Tests/TransitFeedsTests/Feeds/corrupt.zip, origin: { lat: 45, lon: 7 } }
            """.write(to: folder.appendingPathComponent("service.yaml"), atomically: true, encoding: .utf8)
        try expectFailure(["serve", "--config", folder.appendingPathComponent("service.yaml").path], status: 2,
                          "error: service config: planner.gtfs: ", "corrupt.zip: base/stops.txt: CRC-32 mismatch")
    }
}
