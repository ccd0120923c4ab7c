import Foundation
import Testing

/// `citysim serve|load|view` hand their arguments, `--help` and the first positional or dash-prefixed one
/// included, to the `citysim-service` beside `citysim`, and say how to build it when there is none.
@Suite("citysim serve, load and view run citysim-service", .enabled(if: CitySimBinary.located != nil, Comment(rawValue: CitySimBinary.missingReason)))
struct ServiceForwardingTests {
    let binary = CitySimBinary.located!

    @Test("serve --help is citysim-service serve's help, listing its options")
    func serveHelpIsTheServiceCommands() throws {
        let outcome = try binary.run(["serve", "--help"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.contains("USAGE: citysim-service serve"), "stdout: \(outcome.stdout)")
        #expect(outcome.stdout.contains("--clock-speed"), "stdout: \(outcome.stdout)")
    }

    @Test("view's positional argument and load's options reach the service executable unchanged")
    func argumentsArriveUnchanged() throws {
        let view = try binary.run(["view", "/no/such/run-folder", "--port", "1"])
        #expect(view.status == 2, "stderr: \(view.stderr)")
        #expect(view.stderr.contains("/no/such/run-folder/trace.bin: missing"), "stderr: \(view.stderr)")
        let load = try binary.run(["load", "Scenarios/smoke.yaml", "--concurrency", "many"])
        #expect(load.status == 64, "stderr: \(load.stderr)")
        #expect(load.stderr.contains("many"), "stderr: \(load.stderr)")
    }

    @Test("without a citysim-service beside it, serve exits 4 saying where it looked and how to build it")
    func missingServiceExecutableIsExplained() throws {
        let folder = try temporaryFolder("lonely-citysim")
        let lonely = folder.appendingPathComponent("citysim")
        try FileManager.default.copyItem(at: binary.url, to: lonely)
        let outcome = try CitySimBinary(url: lonely).run(["serve", "--config", "Service/service.yaml"])
        #expect(outcome.status == 4, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("error: citysim serve is carried by the citysim-service executable"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains(folder.appendingPathComponent("citysim-service").path), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("swift build --product citysim-service"), "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "stdout: \(outcome.stdout)")
    }
}
