import Foundation
import Yams

/// `citysim serve --config service.yaml`: where the city and rules come from,
/// where the data lives, where to listen, and the first administrator.
///
/// ```yaml
/// scenario: smoke.yaml          # city, zones and dispatch rules; relative to this file
/// database: service.sqlite      # SQLite file (WAL); relative to the working directory, or
///                               # postgres://user:pass@host:5432/db for PostgreSQL
/// host: 127.0.0.1
/// port: 8080
/// admin: { email: admin@example.com, password: change-me-now }
/// token_lifetime_s: 86400
/// bcrypt_cost: 12
/// planner:                      # optional; without it the trip planner has no public transport
///   gtfs: gtfs/rush-hour        # GTFS folder; relative to this file
///   origin: { lat: 45.0, lon: 7.0 }   # latitude/longitude of the city's south-west corner
///   transfer_s: 60
/// clock_speed: 1                # > 1 runs the service clock faster (load tests: `citysim load --speed`)
/// login_burst_per_address: 30   # logins one client address may make at once (load tests from one host raise it)
/// archive_after_s: 600          # ended rides leave memory this long after they end (read from the store then)
/// archive_retain_days: 365      # optional; archived rides are deleted this long after they end (default: kept for ever)
/// checkpoint: { every_commands: 100000, every_s: 300 }   # snapshot the state and cut the command log (0 = never)
/// commit_delay_ms: 2            # group commit waits this long for more commands while the service is busy (0 = never)
/// log: { level: info, format: text, requests: debug }   # format json: one JSON object a line
/// tracing: { otlp_endpoint: "http://localhost:4318", service_name: citysim }   # optional; spans as OTLP/HTTP JSON
///                               # (also otlp_traces_endpoint, otlp_headers, otlp_timeout_ms, sampler, …: `TracingSettings`)
/// ```
///
/// Read strictly by `load(path:environment:)` (see `ServiceConfigReader`): an unknown key is an error;
/// every key can be set from the environment (`CITYSIM_PORT`, `CITYSIM_ADMIN_PASSWORD`,
/// `CITYSIM_PLANNER_ORIGIN_LAT`, …, and OpenTelemetry's `OTEL_EXPORTER_OTLP_*`, `OTEL_TRACES_SAMPLER*`, `OTEL_SERVICE_NAME`;
/// an error about such a value names its variable); `database_file` and `admin.password_file` read a secret from a file.
public struct ServiceConfig: Codable, Sendable, Equatable {
    public struct Admin: Codable, Sendable, Equatable {
        public var email: String
        public var password: String
        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    /// Scenario file (city and `dispatch` section); relative paths are relative to the config file.
    public var scenario: String
    /// Where the data lives: a SQLite file (created when missing), or a PostgreSQL URL
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (see `PostgresURL`; the database must exist,
    /// the tables are created). See `storeLocation`.
    public var database: String
    public var host: String
    public var port: Int
    /// The first administrator, created on start when no account has this email.
    public var admin: Admin
    /// Lifetime of bearer tokens, seconds. Default 86400.
    public var tokenLifetimeS: Double?
    /// Bcrypt cost (4–31). Default 12.
    public var bcryptCost: Int?
    /// The trip planner's public transport; nil = no transit mode.
    public var planner: PlannerSettings?

    /// Service-clock seconds per real second (> 0). Default 1, the wall clock; a load test playing a
    /// scenario at `--speed N` runs the service at `clock_speed: N` so timers are compressed alike.
    public var clockSpeed: Double?
    /// Logins one client address may make in a burst (refilled at the same number per minute). Default 30;
    /// a load test that signs in hundreds of customers from 127.0.0.1 raises it.
    public var loginBurstPerAddress: Int?
    /// Log level, format and request logging; nil = info, text, requests at debug.
    public var log: LogSettings?
    /// Seconds (service clock) after which an ended ride leaves memory for the store's archive, where
    /// `GET /v1/rides/{id}` still finds it; D13 reports are taken until then. Default 600.
    public var archiveAfterS: Double?
    /// Days (service clock) after which an archived ride is deleted from the store's archive; nil = kept
    /// for ever. `GET /v1/rides[/{id}]` and `GET /v1/admin/state`'s pages no longer find a deleted ride;
    /// the admin state's counts (`archived_count`) keep counting it. Needs checkpoints (see `validate`).
    public var archiveRetainDays: Double?

    /// Milliseconds (real time) a command-log commit waits, while the service is busy, for more commands to
    /// share its transaction and its `fdatasync`; 0 = never, nil = `defaultCommitDelayMs`. As PostgreSQL's
    /// `commit_delay`: it trades latency for CPU and disk. It applies only when the previous round of commits
    /// carried more than one command, so a quiet service answers as fast as without it (`DispatchHost.delayCommits`).
    public var commitDelayMs: Double?

    /// When the service stores a checkpoint of its state and deletes the command log up to it
    /// (`DispatchHost.checkpoint()`); nil = the defaults, every 100,000 commands or 300 s.
    public var checkpoint: CheckpointSettings?

    /// Where tracing spans are exported (OTLP/HTTP JSON) and how; nil, or no endpoint = no tracer.
    public var tracing: TracingSettings?

    /// Whether `POST /v1/rides`'s common case is answered in front of the router (`RideFastPath`), with the same
    /// answers, logs and metrics for about a fifth less server CPU per ride. Default true; it is off while
    /// tracing is on, as the request spans come from the router's middleware.
    public var rideFastPath: Bool?

    /// The default of `archive_after_s`.
    public static let defaultArchiveAfter = 600.0

    /// The default of `commit_delay_ms`. At 5,000 rides/s from 500 clients, 2 ms takes a fifth to a third off the
    /// server's CPU per ride (7–15 commands per commit instead of ~2) for ~2 ms more p50 and no worse p99
    /// (`Results/service/commit-delay-s23.tsv`); a service that is not busy never waits.
    public static let defaultCommitDelayMs = 2.0

    public init(scenario: String, database: String, host: String = "127.0.0.1", port: Int = 8080,
                admin: Admin, tokenLifetimeS: Double? = nil, bcryptCost: Int? = nil, clockSpeed: Double? = nil,
                planner: PlannerSettings? = nil) {
        self.scenario = scenario
        self.database = database
        self.host = host
        self.port = port
        self.admin = admin
        self.tokenLifetimeS = tokenLifetimeS
        self.bcryptCost = bcryptCost
        self.planner = planner
        self.clockSpeed = clockSpeed
    }

    /// Reads a config file strictly, with the environment's `CITYSIM_*` overrides and `*_file` secrets;
    /// the scenario and GTFS paths become absolute (relative to the file).
    /// - Throws: `ConfigError` naming the file, the key and the reason.
    public static func load(path: String,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServiceConfig {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw ConfigError(message: "cannot read file: \(error.localizedDescription)", file: path, line: nil)
        }
        let reader = ServiceConfigReader(file: path, environment: environment)
        var config = try reader.read(text)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !config.scenario.hasPrefix("/") {
            config.scenario = folder.appendingPathComponent(config.scenario).path
        }
        if let gtfs = config.planner?.gtfs, !gtfs.hasPrefix("/") {
            config.planner?.gtfs = folder.appendingPathComponent(gtfs).path
        }
        do { try config.validate() } catch var error as ConfigError {
            error.file = path
            error.variable = error.key.flatMap(reader.variable(setting:))
            throw error
        }
        return config
    }

    /// - Throws: a message naming the first bad field.
    public func validate() throws {
        func fail(_ why: String) -> any Error { ConfigError(message: why) }
        guard (1...65_535).contains(port) else { throw fail("port must be 1–65535 (got \(port))") }
        if let t = tokenLifetimeS, !(t.isFinite && t > 0) { throw fail("token_lifetime_s must be > 0") }
        if let c = bcryptCost, !(4...31).contains(c) { throw fail("bcrypt_cost must be 4–31") }
        if let s = clockSpeed, !(s.isFinite && s > 0) { throw fail("clock_speed must be > 0") }
        if let b = loginBurstPerAddress, b < 1 { throw fail("login_burst_per_address must be at least 1") }
        if let a = archiveAfterS, !(a.isFinite && a >= 0) { throw fail("archive_after_s must be >= 0") }
        if let d = archiveRetainDays {
            guard d.isFinite && d > 0 else { throw fail("archive_retain_days must be > 0 (leave it out to keep archived rides for ever)") }
            // Without checkpoints a restart replays the whole log and would bring deleted rides back into memory.
            guard (checkpoint ?? CheckpointSettings()).policy != .never else {
                throw fail("archive_retain_days needs checkpoints (checkpoint.every_commands or checkpoint.every_s > 0): "
                           + "an archived ride is deleted only once no checkpoint can bring it back")
            }
        }
        if let d = commitDelayMs, !(d.isFinite && (0...1000).contains(d)) { throw fail("commit_delay_ms must be 0–1000") }
        if let n = checkpoint?.everyCommands, n < 0 { throw fail("checkpoint.every_commands must be >= 0 (0: never)") }
        if let s = checkpoint?.everyS, !(s.isFinite && s >= 0) { throw fail("checkpoint.every_s must be >= 0 (0: never)") }
        _ = try storeLocation()
        guard admin.password.utf8.count >= 8 else { throw fail("admin.password must be at least 8 bytes") }
        try tracing?.validate()
        if let planner {
            guard (-90...90).contains(planner.origin.lat) else { throw fail("planner.origin.lat must be -90–90") }
            guard (-180...180).contains(planner.origin.lon) else { throw fail("planner.origin.lon must be -180–180") }
            if let t = planner.transferS, !(t.isFinite && (0...3600).contains(t)) { throw fail("planner.transfer_s must be 0–3600") }
        }
    }

    /// The engine `database` names: a `postgres://` or `postgresql://` URL is PostgreSQL, anything else a SQLite path.
    /// - Throws: `ConfigError` naming `database` when the URL is malformed.
    public func storeLocation() throws -> StoreLocation {
        guard PostgresURL.isPostgres(database) else {
            guard !database.isEmpty else { throw ConfigError(message: "database must name a SQLite file or a postgres:// URL") }
            return .sqlite(path: database)
        }
        do { return .postgres(try PostgresURL(database)) } catch let error as PostgresURL.Invalid {
            throw ConfigError(message: "database: \(error)")
        }
    }

    /// `database` with a PostgreSQL password hidden, for logs.
    public var redactedDatabase: String {
        if case .postgres(let url)? = try? storeLocation() { url.redacted } else { database }
    }

    enum CodingKeys: String, CodingKey {
        case scenario, database, host, port, admin
        case tokenLifetimeS = "token_lifetime_s", bcryptCost = "bcrypt_cost"
        case clockSpeed = "clock_speed", loginBurstPerAddress = "login_burst_per_address", planner, log
        case archiveAfterS = "archive_after_s", archiveRetainDays = "archive_retain_days", checkpoint
        case commitDelayMs = "commit_delay_ms", tracing, rideFastPath = "ride_fast_path"
    }
}

/// The `checkpoint:` block of the service config: a checkpoint is taken once `every_commands` commands
/// were logged since the last one, or `every_s` real seconds passed with a command logged since,
/// whichever comes first. Invariant (checked by `ServiceConfig.validate`): both ≥ 0; 0 turns that
/// trigger off, both 0 turn checkpoints off (the log then grows without bound, as before).
public struct CheckpointSettings: Codable, Sendable, Equatable {
    /// Default 100,000.
    public var everyCommands: Int?
    /// Real seconds. Default 300.
    public var everyS: Double?

    public static let defaultEveryCommands = 100_000
    public static let defaultEveryS = 300.0

    public init(everyCommands: Int? = nil, everyS: Double? = nil) {
        self.everyCommands = everyCommands
        self.everyS = everyS
    }

    /// The host's policy for these settings, defaults filled in.
    public var policy: CheckpointPolicy {
        CheckpointPolicy(commands: Int64(everyCommands ?? Self.defaultEveryCommands), seconds: everyS ?? Self.defaultEveryS)
    }

    enum CodingKeys: String, CodingKey { case everyCommands = "every_commands", everyS = "every_s" }
}

/// The `planner:` block of the service config: the GTFS feed the trip planner routes public
/// transport on, read once at start. Invariant (checked by `ServiceConfig.validate`): the origin
/// is a valid latitude/longitude and `transfer_s` is 0–3600.
public struct PlannerSettings: Codable, Sendable, Equatable {
    public struct Origin: Codable, Sendable, Equatable {
        public var lat: Double
        public var lon: Double
        public init(lat: Double, lon: Double) { self.lat = lat; self.lon = lon }
    }

    /// GTFS feed, a folder or a `.zip` (read by `GTFSSource`); relative paths are relative to the config file.
    public var gtfs: String
    /// Latitude and longitude of the city's south-west corner.
    public var origin: Origin
    /// Seconds needed to change vehicles. Default 60.
    public var transferS: Double?

    public init(gtfs: String, origin: Origin, transferS: Double? = nil) {
        self.gtfs = gtfs
        self.origin = origin
        self.transferS = transferS
    }

    enum CodingKeys: String, CodingKey { case gtfs, origin, transferS = "transfer_s" }
}

/// The storage engine of the service and where its data is.
public enum StoreLocation: Sendable, Equatable {
    /// `SQLiteDispatchStore` on this file.
    case sqlite(path: String)
    /// `PostgresDispatchStore` on this server and database.
    case postgres(PostgresURL)
}

/// A service config that cannot be used: which file (and line, when known), which key, and why.
public struct ConfigError: Error, CustomStringConvertible {
    /// `key.path: reason`, or the reason alone when it concerns the whole file.
    public var message: String
    /// The config file, when the error came from one.
    public var file: String?
    /// 1-based line in `file`, when known.
    public var line: Int?
    /// The environment variable that set the bad key, when one did (`CITYSIM_PORT`, `OTEL_EXPORTER_OTLP_HEADERS`).
    public var variable: String?
    /// The key path the message is about, when it is about one key (`["tracing", "otlp_headers"]`).
    var key: [String]?

    public init(message: String, file: String? = nil, line: Int? = nil) {
        self.message = message
        self.file = file
        self.line = line
    }

    /// `key.path: reason`, remembering the key so the variable that set it can be named.
    init(key: [String], reason: String) {
        self.init(message: "\(key.joined(separator: ".")): \(reason)")
        self.key = key
    }

    /// `service config FILE:LINE: key: reason`, and ` (set by VARIABLE)` when the environment set the key.
    public var description: String {
        let source = variable.map { " (set by \($0))" } ?? ""
        guard let file else { return "service config: \(message)\(source)" }
        return "service config \(file)\(line.map { ":\($0)" } ?? ""): \(message)\(source)"
    }
}
