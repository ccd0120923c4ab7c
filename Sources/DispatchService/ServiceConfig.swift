import Foundation
import Yams

/// `citysim serve --config service.yaml`: where the city and rules come from,
/// where the data lives, where to listen, and the first administrator.
///
/// ```yaml
/// scenario: smoke.yaml          # city, zones and dispatch rules; relative to this file
/// database: service.sqlite      # SQLite file (WAL); relative to the working directory
/// host: 127.0.0.1
/// port: 8080
/// admin: { email: admin@example.com, password: change-me-now }
/// token_lifetime_s: 86400
/// bcrypt_cost: 12
/// clock_speed: 1                # > 1 runs the service clock faster (load tests: `citysim load --speed`)
/// login_burst_per_address: 30   # logins one client address may make at once (load tests from one host raise it)
/// ```
public struct ServiceConfig: Codable, Sendable, Equatable {
    public struct Admin: Codable, Sendable, Equatable {
        public var email: String
        public var password: String
    }

    /// Scenario file (city and `dispatch` section); relative paths are relative to the config file.
    public var scenario: String
    /// SQLite database file; created when missing.
    public var database: String
    public var host: String
    public var port: Int
    /// The first administrator, created on start when no account has this email.
    public var admin: Admin
    /// Lifetime of bearer tokens, seconds. Default 86400.
    public var tokenLifetimeS: Double?
    /// Bcrypt cost (4–31). Default 12.
    public var bcryptCost: Int?
    /// Service-clock seconds per real second (> 0). Default 1, the wall clock; a load test playing a
    /// scenario at `--speed N` runs the service at `clock_speed: N` so timers are compressed alike.
    public var clockSpeed: Double?
    /// Logins one client address may make in a burst (refilled at the same number per minute). Default 30;
    /// a load test that signs in hundreds of customers from 127.0.0.1 raises it.
    public var loginBurstPerAddress: Int?

    public init(scenario: String, database: String, host: String = "127.0.0.1", port: Int = 8080,
                admin: Admin, tokenLifetimeS: Double? = nil, bcryptCost: Int? = nil, clockSpeed: Double? = nil) {
        self.scenario = scenario
        self.database = database
        self.host = host
        self.port = port
        self.admin = admin
        self.tokenLifetimeS = tokenLifetimeS
        self.bcryptCost = bcryptCost
        self.clockSpeed = clockSpeed
    }

    /// Reads a config file; the scenario path becomes absolute (relative to the file).
    public static func load(path: String) throws -> ServiceConfig {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let decoder = YAMLDecoder()
        var config = try decoder.decode(ServiceConfig.self, from: text, userInfo: [:])
        if !config.scenario.hasPrefix("/") {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            config.scenario = folder.appendingPathComponent(config.scenario).path
        }
        try config.validate()
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
        guard admin.password.utf8.count >= 8 else { throw fail("admin.password must be at least 8 bytes") }
    }

    enum CodingKeys: String, CodingKey {
        case scenario, database, host, port, admin
        case tokenLifetimeS = "token_lifetime_s", bcryptCost = "bcrypt_cost"
        case clockSpeed = "clock_speed", loginBurstPerAddress = "login_burst_per_address"
    }
}

public struct ConfigError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { "service config: \(message)" }
}
