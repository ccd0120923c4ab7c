import CitySim
import Foundation
import Testing
@testable import DispatchService

/// The bundled `Service/service.yaml` and config validation.
@Suite struct ServiceConfigTests {
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Service/service.yaml").path

    @Test func bundledConfigLoadsAndNamesALoadableScenario() throws {
        let config = try ServiceConfig.load(path: Self.bundled)
        #expect(config.port == 8080 && config.host == "127.0.0.1")
        #expect(config.scenario.hasSuffix("Scenarios/smoke.yaml"))
        _ = try Scenario.load(path: config.scenario).makeDispatchCore()
    }

    /// Every YAML file in the package's `Service/` folder.
    static func bundledConfigs() -> [String] {
        let folder = URL(fileURLWithPath: bundled).deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    @Test("every file in Service/ is a service config whose scenario loads", arguments: bundledConfigs())
    func everyFileInServiceIsAServiceConfig(path: String) throws {
        let config = try ServiceConfig.load(path: path)
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
