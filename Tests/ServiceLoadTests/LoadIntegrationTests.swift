import CitySim
import DispatchService
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import ServiceLoad

/// `citysim load` against an in-process service on an ephemeral port (a few seconds each).
@Suite(.serialized) struct LoadIntegrationTests {
    static let cityYAML = """
        name: load-live
        seed: 2
        duration_hours: 1
        city: { width_km: 4, height_km: 4, zone: { area_km2: 2 }, metric: manhattan, detour_factor: 1.2, speed_kmh: 30 }
        demand: { requests_per_hour: 1200, cancellation: { probability: 0.1, mean_s: 30 } }
        fleet: { shifts: [ { name: day, start: "00:00", end: "24:00", taxis: 6 } ] }
        drivers: { accept_probability: 0.9, response_time: { kind: fixed, value_s: 5 } }
        dispatch: { policy: zone-fifo }
        """

    /// Serves the city on 127.0.0.1 with a fresh in-memory store at `speed`, runs `body` with its URL.
    func withService(speed: Double, _ body: @Sendable (String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarioPath = folder.appendingPathComponent("city.yaml").path
        try Self.cityYAML.write(toFile: scenarioPath, atomically: true, encoding: .utf8)
        let configPath = folder.appendingPathComponent("service.yaml").path
        try """
            scenario: city.yaml
            database: unused.sqlite
            host: 127.0.0.1
            port: 8081
            admin: { email: admin@example.com, password: admin-password }
            bcrypt_cost: 4
            clock_speed: \(speed)
            login_burst_per_address: 10000
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        let config = try ServiceConfig.load(path: configPath)
        let service = try await DispatchServiceApp.open(config: config, store: InMemoryDispatchStore())
        let app = Application(router: buildRouter(host: service.host, accounts: service.accounts),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let timers = Task { await service.host.runTimers() }
        defer { timers.cancel() }
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)")
        }
    }

    func options(_ url: String, mode: LoadOptions.Mode) throws -> LoadOptions {
        var options = LoadOptions(url: url, scenario: try Scenario.load(yaml: Self.cityYAML, file: "city.yaml"),
                                  adminEmail: "admin@example.com", adminPassword: "admin-password")
        options.mode = mode
        return options
    }

    @Test func aBurstStoresEveryAcknowledgedRide() async throws {
        try await withService(speed: 1) { url in
            var options = try options(url, mode: .burst)
            options.concurrency = 8
            options.duration = 1
            options.warmup = 0.2
            options.queryShare = 0.5
            let outcome = try await LoadRun.run(options)
            let rides = try #require(outcome.report.endpoint("POST /v1/rides"))
            #expect(rides.count > 10)
            #expect(rides.errors.isEmpty)
            #expect(outcome.report.endpoint("GET /v1/queue") != nil)
            #expect(outcome.check.holds, "\(outcome.check.summary)")
            #expect(outcome.check.acknowledged > 10)
        }
    }

    @Test func aCompressedScenarioPlaysCustomersAndDriversAndLosesNothing() async throws {
        // 6 simulated minutes at 240×: 1.5 s of requests, then the rides in progress finish (~10 simulated min).
        try await withService(speed: 240) { url in
            var options = try options(url, mode: .scenario)
            options.concurrency = 20
            options.speed = 240
            options.hours = 0.1
            options.drain = 240
            options.driverPoll = 0.03
            options.customerPoll = 0.1
            let outcome = try await LoadRun.run(options)
            #expect(outcome.check.holds, "\(outcome.check.summary)")
            #expect(outcome.check.acknowledged > 30)
            #expect(outcome.report.endpoint("GET /v1/driver") != nil)
            #expect(outcome.report.endpoint("POST /v1/driver/offers/{id}/accept") != nil,
                    "\(outcome.report.table)\n\(outcome.report.notes)")
        }
    }
}
