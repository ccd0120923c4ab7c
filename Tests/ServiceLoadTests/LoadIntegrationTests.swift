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
    /// - Parameters:
    ///   - config: more lines of the service config.
    ///   - upkeep: also archive, checkpoint and apply the archive's retention every 50 ms (the service
    ///     deletes once a minute, too seldom for a run of seconds).
    func withService(speed: Double, config extra: String = "", upkeep: Bool = false,
                     _ body: @Sendable (String) async throws -> Void) async throws {
        try await withService(speed: speed, config: extra, upkeep: upkeep) { url, _ in try await body(url) }
    }

    /// As above, and `body` also gets a function that stops the upkeep and returns once its last
    /// round has ended, so that the service's counts hold still for a comparison.
    func withService(speed: Double, config extra: String = "", upkeep: Bool,
                     _ body: @Sendable (String, _ stopUpkeep: @Sendable () async -> Void) async throws -> Void) async throws {
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
            \(extra)
            """.write(toFile: configPath, atomically: true, encoding: .utf8)
        let config = try ServiceConfig.load(path: configPath)
        let service = try await DispatchServiceApp.open(config: config, store: InMemoryDispatchStore())
        let app = Application(router: buildRouter(host: service.host, accounts: service.accounts),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        let host = service.host
        let timers = Task { await host.runTimers() }
        defer { timers.cancel() }
        let maintenance = Task {
            while upkeep, !Task.isCancelled {
                _ = try? await host.archiveEnded()
                _ = try? await host.checkpoint()
                _ = try? await host.deleteExpiredArchive()
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { maintenance.cancel() }
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)") {
                maintenance.cancel()
                await maintenance.value
            }
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
            #expect(outcome.report.notes["answers_outside_openapi_document"] == nil, "every 201 was the document's Ride")
        }
    }

    /// The scenario mode at 240×: 6 simulated minutes (1.5 s of requests), then the rides in progress finish (~10 simulated min).
    func compressedScenario(_ url: String) throws -> LoadOptions {
        var options = try options(url, mode: .scenario)
        options.concurrency = 20
        options.speed = 240
        options.hours = 0.1
        options.drain = 240
        options.driverPoll = 0.03
        options.customerPoll = 0.1
        return options
    }

    @Test func aCompressedScenarioPlaysCustomersAndDriversAndLosesNothing() async throws {
        try await withService(speed: 240) { url in
            let outcome = try await LoadRun.run(try compressedScenario(url))
            #expect(outcome.check.holds, "\(outcome.check.summary)")
            #expect(outcome.check.acknowledged > 30)
            #expect(outcome.report.endpoint("GET /v1/driver") != nil)
            #expect(outcome.report.endpoint("POST /v1/driver/offers/{id}/accept") != nil,
                    "\(outcome.report.table)\n\(outcome.report.notes)")
        }
    }

    /// Retention deleting archived rides during the load: what it deleted is not lost, but a ride the
    /// service never had still is. Rides leave memory 5 s (service clock) after they end and are deleted
    /// 120 s after (0.5 s real at 240×), so most of the run's rides are gone by its end.
    @Test func ridesTheRetentionDeletedDuringTheLoadAreNotLostButAMissingRideStillIs() async throws {
        let retention = """
            archive_after_s: 5
            archive_retain_days: \(120.0 / 86_400)
            checkpoint: { every_s: 1 }   # retention needs checkpoints; the upkeep takes them
            """
        try await withService(speed: 240, config: retention, upkeep: true) { url, stopUpkeep in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-ack-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: file) }
            var options = try compressedScenario(url)
            options.acknowledgedPath = file.path
            let outcome = try await LoadRun.run(options)
            #expect(outcome.check.holds, "\(outcome.check.summary)")
            #expect(outcome.check.acknowledged > 30)
            #expect(outcome.check.deletedByRetention > 10, "the retention deleted rides during the load")
            #expect(outcome.check.summary.contains("deleted by the service's retention"), "\(outcome.check.summary)")

            // Rides the service never had: one more than the deleted rides no acknowledgement explains (answers
            // lost in flight), so the missing outnumber the deleted. Counted once the retention has stopped:
            // were it still deleting, each unacknowledged ride it deleted before the second check would
            // explain one injected ride away (the flake of session 19's CI).
            await stopUpkeep()
            let still = try await LoadRun.check(url: url, acknowledgedPath: file.path,
                                                adminEmail: "admin@example.com", adminPassword: "admin-password")
            #expect(still.holds, "\(still.summary)")
            let unexplained = max(0, still.deletedByRetention - still.missing.count)
            let first = (try AcknowledgedRides.load(path: file.path).keys.max() ?? 0) + 1_000
            let never = first...(first + unexplained)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(never.map { "\($0) completed\n" }.joined().utf8))
            try handle.close()
            let lost = try await LoadRun.check(url: url, acknowledgedPath: file.path,
                                               adminEmail: "admin@example.com", adminPassword: "admin-password")
            #expect(!lost.holds)
            #expect(lost.lost.suffix(never.count) == Array(never))
            #expect(lost.summary.contains("END STATE DIFFERS"), "\(lost.summary)")
        }
    }
}
