import ArgumentParser
import CitySim
import DispatchService
import Foundation
import ServiceLoad

/// `citysim load SCENARIO.yaml --url http://127.0.0.1:PORT`: the scenario's customers and drivers
/// act through the service's API (or, `--mode burst`, closed-loop clients request rides back to
/// back); prints latency per endpoint and checks the end state against the service.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load-test a running `citysim serve`: per-endpoint latency (HDR), throughput, end-state check.")

    @Argument(help: "The scenario file (YAML): demand, fleet and driver behaviour to play.")
    var scenario: String

    @Option(help: "The service's base URL.")
    var url = "http://127.0.0.1:8080"

    @Option(help: "scenario: play the scenario's customers and drivers; burst: closed-loop ride requests.")
    var mode: LoadOptions.Mode = .scenario

    @Option(help: "Burst: closed-loop clients. Scenario: size of the customer pool. Also the connection limit.")
    var concurrency = 500

    @Option(help: "Scenario mode: simulated seconds per real second (serve with clock_speed equal to it).")
    var speed = 60.0

    @Option(help: "Scenario mode: hours of the scenario to play (default: all of it).")
    var hours: Double?

    @Option(help: "Burst mode: measured time, e.g. 30s, 2m.")
    var duration = "30s"

    @Option(help: "Burst mode: warm-up before measuring, e.g. 2s.")
    var warmup = "2s"

    @Option(help: "Seed (default: the scenario's).")
    var seed: UInt64?

    @Option(name: .customLong("set"), help: "Override a scenario key, e.g. --set demand.requests_per_hour=3000 (repeatable). The city must stay the service's.")
    var overrides: [String] = []

    @Option(help: "Service config to read the administrator's credentials from.")
    var config = "Service/service.yaml"

    @Option(help: "Administrator email (default: the config's).")
    var adminEmail: String?

    @Option(help: "Administrator password (default: the config's).")
    var adminPassword: String?

    @Option(help: "Append every acknowledged ride (`id status`) to this file as it is acknowledged.")
    var acknowledged: String?

    @Option(help: "Write the report as JSON to this file.")
    var out: String?

    @Option(help: "Scenario mode: real seconds between a customer's looks at its ride.")
    var poll = 1.0

    @Option(help: "Real seconds between a driver's looks at GET /v1/driver (scenario mode; burst mode with --drivers).")
    var driverPoll = 0.25

    @Option(help: "Burst mode: taxis that accept every offer and complete the ride at once (default 0: rides are rejected).")
    var drivers = 0

    @Option(help: "Burst mode: share of iterations that also ask GET /v1/queue (0–1).")
    var queryShare = 0.0

    @Option(help: "Burst mode: pace all clients together at this many ride requests per second (default: back to back).")
    var rate: Double?

    @Flag(help: "Do not load: compare the --acknowledged file with the service's state and exit.")
    var checkOnly = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be > 0") }
        guard (0...1).contains(queryShare) else { throw ValidationError("--query-share must be 0–1") }
        guard drivers >= 0 else { throw ValidationError("--drivers must be 0 or more") }
        guard driverPoll > 0, driverPoll.isFinite else { throw ValidationError("--driver-poll must be > 0") }
        if let rate, !(rate > 0 && rate.isFinite) { throw ValidationError("--rate must be > 0") }
        _ = try Self.seconds(duration)
        _ = try Self.seconds(warmup)
        if checkOnly, acknowledged == nil { throw ValidationError("--check-only needs --acknowledged FILE") }
    }

    func run() async throws {
        let (email, password) = try credentials()
        if checkOnly, let acknowledged {
            let check = try await LoadRun.check(url: url, acknowledgedPath: acknowledged, adminEmail: email,
                                                adminPassword: password)
            print(check.summary)
            if !check.holds { throw ExitCode(1) }
            return
        }
        let loaded: Scenario
        do { loaded = try Scenario.load(path: scenario, overrides: overrides) } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var options = LoadOptions(url: url, scenario: loaded, adminEmail: email, adminPassword: password)
        options.mode = mode
        options.concurrency = concurrency
        options.speed = speed
        options.hours = hours
        options.duration = try Self.seconds(duration)
        options.warmup = try Self.seconds(warmup)
        options.seed = seed
        options.acknowledgedPath = acknowledged
        options.customerPoll = poll
        options.driverPoll = driverPoll
        options.queryShare = queryShare
        options.rate = rate
        options.burstDrivers = drivers
        let outcome = try await LoadRun.run(options) { message in
            FileHandle.standardError.write(Data("citysim load: \(message)\n".utf8))
        }
        var report = outcome.report
        report.notes["command"] = CommandLine.arguments.dropFirst().joined(separator: " ")
        print(report.table)
        if let rate = report.notes["durable_ride_requests_per_s"] { print("durable ride requests/s: \(rate)") }
        print(outcome.check.summary)
        if let out {
            let folder = URL(fileURLWithPath: out).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try report.json().write(to: URL(fileURLWithPath: out))
        }
        if !outcome.check.holds { throw ExitCode(1) }
    }

    private func credentials() throws -> (String, String) {
        if let adminEmail, let adminPassword { return (adminEmail, adminPassword) }
        let service: ServiceConfig
        do { service = try ServiceConfig.load(path: config) } catch {
            FileHandle.standardError.write(Data("error: \(error) (or pass --admin-email and --admin-password)\n".utf8))
            throw ExitCode(2)
        }
        return (adminEmail ?? service.admin.email, adminPassword ?? service.admin.password)
    }

    /// "30s", "2m", "1h" or plain seconds.
    static func seconds(_ text: String) throws -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
        if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0 { return value * unit }
        if let value = Double(text), value >= 0 { return value }
        throw ValidationError("not a duration: \(text) (use e.g. 30s, 2m)")
    }
}
