import CitySim
import Foundation
import Testing
@testable import DispatchService

/// The service config is read strictly, takes `CITYSIM_*` overrides and `*_file` secrets, and says
/// when it is given a scenario (and a scenario loader says when it is given a service config).
@Suite struct ServiceConfigReadingTests {
    static let minimal = """
        scenario: /tmp/unused-scenario.yaml
        database: service.sqlite
        host: 127.0.0.1
        port: 8080
        admin: { email: admin@example.com, password: change-me-now }
        """

    /// Writes `yaml` to a file in `folder` and loads it with `environment`.
    static func load(_ yaml: String, in folder: TemporaryFolder, environment: [String: String] = [:]) throws -> ServiceConfig {
        let path = folder.path("service.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try ServiceConfig.load(path: path, environment: environment)
    }

    static func error(_ yaml: String, in folder: TemporaryFolder, environment: [String: String] = [:]) -> ConfigError? {
        do { _ = try load(yaml, in: folder, environment: environment); return nil } catch { return error as? ConfigError }
    }

    @Test func anUnknownKeyIsAnErrorNamingTheFileLineAndKey() throws {
        let folder = try TemporaryFolder()
        let top = try #require(Self.error(Self.minimal + "\nbcrypt_cots: 4\n", in: folder))
        #expect(top.file == folder.path("service.yaml") && top.line == 6)
        #expect(top.message.hasPrefix("bcrypt_cots: unknown key 'bcrypt_cots' (known: scenario, database,"))
        #expect("\(top)".hasPrefix("service config \(folder.path("service.yaml")):6: bcrypt_cots: unknown key"))
        let nested = try #require(Self.error(Self.minimal.replacingOccurrences(of: "password: change", with: "pasword: change"),
                                             in: folder))
        #expect(nested.message.hasPrefix("admin.pasword: unknown key 'pasword'") && nested.line == 5)
        let log = try #require(Self.error(Self.minimal + "\nlog: { levl: debug }\n", in: folder))
        #expect(log.message.hasPrefix("log.levl: unknown key"))
    }

    @Test func aWrongKindOfValueNamesTheKey() throws {
        let folder = try TemporaryFolder()
        let port = try #require(Self.error(Self.minimal.replacingOccurrences(of: "port: 8080", with: "port: eighty"), in: folder))
        #expect(port.message == "port: expected an integer (got 'eighty')" && port.line == 4)
        let level = try #require(Self.error(Self.minimal + "\nlog: { level: loud }\n", in: folder))
        #expect(level.message.hasPrefix("log.level: expected one of trace, debug, info"))
        let missing = try #require(Self.error(Self.minimal.replacingOccurrences(of: "database: service.sqlite\n", with: ""),
                                              in: folder))
        #expect(missing.message == "database: missing (required)")
        let range = try #require(Self.error(Self.minimal.replacingOccurrences(of: "port: 8080", with: "port: 0"), in: folder))
        #expect(range.file == folder.path("service.yaml") && range.message.hasPrefix("port must be 1–65535"))
    }

    @Test func everyKeyCanBeSetFromTheEnvironment() throws {
        let folder = try TemporaryFolder()
        let config = try Self.load(Self.minimal, in: folder, environment: [
            "CITYSIM_PORT": "9090", "CITYSIM_HOST": "0.0.0.0", "CITYSIM_ADMIN_EMAIL": "ops@example.com",
            "CITYSIM_BCRYPT_COST": "10", "CITYSIM_LOG_LEVEL": "debug", "CITYSIM_LOG_FORMAT": "json",
            "CITYSIM_PLANNER_GTFS": "/feeds/x", "CITYSIM_PLANNER_ORIGIN_LAT": "45.5", "CITYSIM_PLANNER_ORIGIN_LON": "7.5",
            "CITYSIM_UNRELATED": "ignored", "PORT": "1",
        ])
        #expect(config.port == 9090 && config.host == "0.0.0.0" && config.admin.email == "ops@example.com")
        #expect(config.admin.password == "change-me-now" && config.bcryptCost == 10)
        #expect(config.log == LogSettings(level: .debug, format: .json))
        #expect(config.planner == PlannerSettings(gtfs: "/feeds/x", origin: .init(lat: 45.5, lon: 7.5)))
        let bad = try #require(Self.error(Self.minimal, in: folder, environment: ["CITYSIM_PORT": "many"]))
        #expect(bad.message == "port: expected an integer (got 'many')")
    }

    @Test func everySchemaKeyHasItsVariable() {
        let variables = Set(ServiceConfigReader.overridable.map(\.variable))
        #expect(variables.isSuperset(of: ["CITYSIM_SCENARIO", "CITYSIM_DATABASE", "CITYSIM_DATABASE_FILE", "CITYSIM_PORT",
                                          "CITYSIM_ADMIN_PASSWORD", "CITYSIM_ADMIN_PASSWORD_FILE", "CITYSIM_TOKEN_LIFETIME_S",
                                          "CITYSIM_CLOCK_SPEED", "CITYSIM_LOGIN_BURST_PER_ADDRESS", "CITYSIM_LOG_REQUESTS",
                                          "CITYSIM_PLANNER_TRANSFER_S", "CITYSIM_ARCHIVE_AFTER_S"]))
        #expect(variables.count == ServiceConfigReader.overridable.count)  // no two keys share a variable
    }

    @Test func secretsComeFromFilesOrTheEnvironment() throws {
        let folder = try TemporaryFolder()
        try "s3cret-password\n".write(toFile: folder.path("admin-password"), atomically: true, encoding: .utf8)
        try "postgres://citysim:pw@db:5432/citysim\n".write(toFile: folder.path("db-url"), atomically: true, encoding: .utf8)
        let fromFiles = try Self.load("""
            scenario: /tmp/unused-scenario.yaml
            database_file: \(folder.path("db-url"))
            host: 127.0.0.1
            port: 8080
            admin: { email: admin@example.com, password_file: \(folder.path("admin-password")) }
            """, in: folder)
        #expect(fromFiles.admin.password == "s3cret-password")
        #expect(fromFiles.database == "postgres://citysim:pw@db:5432/citysim")

        // The environment's secret replaces the file's key, in either form.
        let fromEnvironment = try Self.load(Self.minimal, in: folder, environment: [
            "CITYSIM_ADMIN_PASSWORD_FILE": folder.path("admin-password"), "CITYSIM_DATABASE": "/data/citysim.sqlite"])
        #expect(fromEnvironment.admin.password == "s3cret-password" && fromEnvironment.database == "/data/citysim.sqlite")

        let both = try #require(Self.error(Self.minimal.replacingOccurrences(
            of: "password: change-me-now", with: "password: change-me-now, password_file: /x"), in: folder))
        #expect(both.message == "admin.password_file: give either password or password_file, not both")
        let unreadable = try #require(Self.error(Self.minimal, in: folder,
                                                 environment: ["CITYSIM_DATABASE_FILE": folder.path("missing")]))
        #expect(unreadable.message.hasPrefix("database_file: cannot read \(folder.path("missing"))"))
    }

    @Test func aScenarioGivenAsServiceConfigAndTheReverseAreNamed() throws {
        let folder = try TemporaryFolder()
        let scenario = try #require(Self.error(ServiceFixture.scenarioYAML, in: folder))
        #expect(scenario.message.hasPrefix("this is a scenario (for citysim run), not a service config"))
        #expect(throws: ScenarioError.self) { try Scenario.load(yaml: Self.minimal, file: "service.yaml") }
        do { _ = try Scenario.load(yaml: Self.minimal, file: "service.yaml") } catch {
            #expect(error.reason.hasPrefix("this is a service config (for citysim serve --config), not a scenario"))
        }
    }
}
