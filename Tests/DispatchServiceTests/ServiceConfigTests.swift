import CitySim
import Foundation
import Testing
@testable import DispatchService

/// The bundled `Scenarios/service.yaml` and config validation.
@Suite struct ServiceConfigTests {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/service.yaml").path

    @Test func bundledConfigLoadsAndNamesALoadableScenario() throws {
        let config = try ServiceConfig.load(path: Self.bundled)
        #expect(config.port == 8080 && config.host == "127.0.0.1")
        #expect(config.scenario.hasSuffix("Scenarios/smoke.yaml"))
        _ = try Scenario.load(path: config.scenario).makeDispatchCore()
    }

    @Test func badValuesAreNamed() throws {
        var config = try ServiceConfig.load(path: Self.bundled)
        config.port = 0
        #expect(throws: ConfigError.self) { try config.validate() }
        config.port = 8080
        config.bcryptCost = 3
        #expect(throws: ConfigError.self) { try config.validate() }
    }
}
