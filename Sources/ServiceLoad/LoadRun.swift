import CitySim
import Foundation

/// What `citysim load` was asked to do.
///
/// Invariant: `concurrency >= 1`, `speed > 0`, `duration > 0`.
public struct LoadOptions: Sendable {
    /// `scenario`: play the scenario's customers and drivers; `burst`: clients requesting rides.
    public enum Mode: String, Sendable, CaseIterable { case scenario, burst }

    public var url: String
    public var scenario: Scenario
    public var mode: Mode = .scenario
    /// Burst: closed-loop clients. Scenario: the customer pool and the connection limit.
    public var concurrency = 500
    /// Scenario mode: simulated seconds per real second (run the service at `clock_speed` = speed).
    public var speed = 60.0
    /// Scenario mode: hours of the scenario to play (default all). Burst mode: measured seconds.
    public var hours: Double?
    public var duration = 30.0
    public var warmup = 2.0
    public var seed: UInt64?
    public var adminEmail: String
    public var adminPassword: String
    /// Where to append each acknowledged ride as it is acknowledged.
    public var acknowledgedPath: String?
    public var customerPoll = 1.0
    public var driverPoll = 0.25
    /// Simulated seconds after the horizon for rides in progress.
    public var drain = 1800.0
    public var queryShare = 0.0
    /// Burst mode: total ride requests per second, paced (nil: closed loop, back to back).
    public var rate: Double?
    /// Burst mode: taxis that take offers and complete the rides at once (0: every ride is rejected).
    public var burstDrivers = 0
    /// Tags this run's accounts (unique per run against one database).
    public var tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)

    public init(url: String, scenario: Scenario, adminEmail: String, adminPassword: String) {
        self.url = url
        self.scenario = scenario
        self.adminEmail = adminEmail
        self.adminPassword = adminPassword
    }
}

/// The outcome of a run: the report and the end-state check.
public struct LoadOutcome: Sendable {
    public var report: LoadReport
    public var check: EndStateCheck
}

/// Runs a load test end to end: accounts, the chosen mode, the report, the end-state check.
///
/// Invariant: the service is reached only through its HTTP API at `options.url`;
/// errors of individual calls are counted in the report, never fatal; only a failed
/// setup (administrator login, account creation) throws.
public enum LoadRun {
    public static func run(_ options: LoadOptions, log: @Sendable (String) -> Void = { _ in }) async throws -> LoadOutcome {
        let recorder = LatencyRecorder()
        let api = ServiceAPI(baseURL: options.url, connections: options.concurrency, recorder: recorder)
        do {
            let outcome = try await run(options, api: api, log: log)
            try await api.shutdown()
            return outcome
        } catch {
            try? await api.shutdown()
            throw error
        }
    }

    private static func run(_ options: LoadOptions, api: ServiceAPI, log: @Sendable (String) -> Void) async throws -> LoadOutcome {
        let setup = LoadSetup(api: api, tag: options.tag)
        let admin = try await setup.login(email: options.adminEmail, password: options.adminPassword)
        let acknowledged = try AcknowledgedRides(path: options.acknowledgedPath)
        defer { acknowledged.close() }
        let play = try ScenarioPlay(scenario: options.scenario, seed: options.seed,
                                    hours: options.mode == .burst ? 1 : options.hours)
        var notes = ["url": options.url, "scenario": options.scenario.name, "tag": options.tag]
        let report: LoadReport
        switch options.mode {
        case .burst:
            log("setting up \(options.concurrency) customers …")
            let customers = try await setup.customers(options.concurrency)
            let drivers = try await setup.drivers(taxiCodes: (0..<options.burstDrivers).map { "B\($0)" }, admin: admin)
            api.recorder.reset()
            log("burst: \(options.concurrency) clients for \(options.duration) s after \(options.warmup) s warm-up"
                + (options.rate.map { ", paced at \($0) ride requests/s in all" } ?? ", back to back"))
            var burst = BurstLoad(api: api, customers: customers, play: play, duration: options.duration,
                                  warmup: options.warmup, queryShare: options.queryShare, acknowledged: acknowledged)
            burst.rate = options.rate
            burst.drivers = drivers
            burst.driverPoll = options.driverPoll
            let seconds = await burst.run()
            if let rate = options.rate {
                notes["paced_rate_per_s"] = "\(rate)"
                notes["late_starts"] = "\(burst.lateStarts.snapshot["late"] ?? 0)"
            }
            if let off = burst.offDocument.snapshot["POST /v1/rides"] { notes["answers_outside_openapi_document"] = "\(off)" }
            if !drivers.isEmpty {
                notes["drivers"] = "\(drivers.count)"
                notes["rides_completed"] = "\(burst.driverCounters.snapshot["rides completed"] ?? 0)"
            }
            let rides = api.recorder.snapshot()["POST /v1/rides"]
            let durable = rides?.statuses[201] ?? 0
            notes["durable_ride_requests_per_s"] = String(format: "%.1f", Double(durable) / seconds)
            report = LoadReport(mode: "burst", seconds: seconds, concurrency: options.concurrency,
                                endpoints: api.recorder.snapshot(), notes: notes)
        case .scenario:
            log("setting up \(play.roster.count) drivers and \(options.concurrency) customers …")
            let drivers = try await setup.drivers(taxiCodes: play.roster.map(\.taxiCode), admin: admin)
            let customers = try await setup.customers(options.concurrency)
            let state = try await serviceState(api, admin: admin)
            if abs(state.clockRate - options.speed) > 1e-9 {
                log("warning: the service clock runs at \(state.clockRate)×, the scenario is played at \(options.speed)×")
            }
            notes["speed"] = "\(options.speed)"
            notes["service_clock_rate"] = "\(state.clockRate)"
            notes["planned_requests"] = "\(play.requests.count)"
            notes["drivers"] = "\(play.roster.count)"
            api.recorder.reset()
            let started = ContinuousClock.now
            let timeline = ScenarioTimeline(speed: options.speed, start: started, serviceStart: state.now)
            log("playing \(play.requests.count) requests and \(play.roster.count) taxis over \(play.horizon / 3600) h at \(options.speed)× (≈ \(Int(play.horizon / options.speed)) s)")
            let load = ScenarioLoad(api: api, play: play, timeline: timeline, customers: customers, drivers: drivers,
                                    acknowledged: acknowledged, customerPoll: options.customerPoll,
                                    driverPoll: options.driverPoll, drain: options.drain)
            let counts = await load.run()
            for (name, count) in counts { notes[name] = "\(count)" }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            report = LoadReport(mode: "scenario", seconds: seconds, concurrency: options.concurrency,
                                endpoints: api.recorder.snapshot(), notes: notes)
        }
        log("checking the end state …")   // Scripts/cpu-per-ride.sh reads the server's CPU here
        let check = EndStateCheck(acknowledged: acknowledged.rides, server: try await serviceState(api, admin: admin))
        var final = report
        final.notes["end_state"] = check.summary
        return LoadOutcome(report: final, check: check)
    }

    /// `GET /v1/admin/state`, every page joined, retried while the service does not answer (restarting).
    public static func serviceState(_ api: ServiceAPI, admin: SignedIn) async throws -> WireServiceState {
        var state = try await serviceStatePage(api, admin: admin, after: 0)
        while let after = state.nextAfter {
            let page = try await serviceStatePage(api, admin: admin, after: after)
            state.rides += page.rides
            state.nextAfter = page.nextAfter
        }
        return state
    }

    private static func serviceStatePage(_ api: ServiceAPI, admin: SignedIn, after: Int) async throws -> WireServiceState {
        var last = 0
        for _ in 0..<120 {
            let answer = await api.call(.GET, "/v1/admin/state?after=\(after)&limit=10000", token: admin.token,
                                        body: nil as String?)
            if answer.status == 200, let state = answer.decode(WireServiceState.self) { return state }
            last = answer.status
            if answer.status != 0 { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw LoadSetup.SetupError.refused("GET /v1/admin/state", status: last)
    }

    /// Compares a file of acknowledged rides (from an earlier run) with the service now.
    public static func check(url: String, acknowledgedPath: String, adminEmail: String,
                             adminPassword: String) async throws -> EndStateCheck {
        let api = ServiceAPI(baseURL: url, connections: 2, recorder: LatencyRecorder())
        do {
            let admin = try await LoadSetup(api: api, tag: "check").login(email: adminEmail, password: adminPassword)
            let acknowledged = try AcknowledgedRides.load(path: acknowledgedPath)
            let check = EndStateCheck(acknowledged: acknowledged, server: try await serviceState(api, admin: admin))
            try await api.shutdown()
            return check
        } catch {
            try? await api.shutdown()
            throw error
        }
    }
}
