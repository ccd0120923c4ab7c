import Foundation
import Testing
@testable import CitySim

/// `canonicalHash` identifies a scenario's content, whatever its layout.
@Suite struct ScenarioHashTests {
    @Test("canonicalHash is stable across loads")
    func hashIsStableAcrossLoads() throws {
        let first = try loadScenario(minimalScenarioYAML).canonicalHash
        let second = try loadScenario(minimalScenarioYAML).canonicalHash
        #expect(first == second)
        #expect(first.count == 16 && first.allSatisfy(\.isHexDigit))
    }

    @Test("canonicalHash changes with content")
    func hashChangesWithContent() throws {
        let base = try loadScenario(minimalScenarioYAML).canonicalHash
        let changed = try loadScenario(minimalScenarioYAML, overrides: ["demand.scale=2"]).canonicalHash
        #expect(base != changed)
    }

    @Test("canonicalHash ignores layout, comments and spelled-out defaults")
    func hashIgnoresLayoutAndDefaults() throws {
        let spelled = "# a comment\nseed: 1\nwarmup_hours: 0\n" + minimalScenarioYAML + "\ndispatch: { policy: zone-fifo }"
        #expect(try loadScenario(spelled).canonicalHash == loadScenario(minimalScenarioYAML).canonicalHash)
    }

    @Test("canonical JSON loads back to the same scenario (beside the scenario, where its data files resolve)")
    func canonicalJSONRoundTrips() throws {
        for file in ScenarioBundledTests.bundledFiles() {
            let scenario = try ScenarioBundledTests.bundled(file)
            let besides = scenariosDirectory.appendingPathComponent("\(file).json").path
            let reloaded = try Scenario.load(yaml: scenario.canonicalJSON, file: besides)
            #expect(reloaded == scenario, "\(file)")
        }
    }

    @Test("FNV-1a of a known document")
    func fnvMatchesReference() throws {
        // FNV-1a 64 of the canonical JSON, recomputed independently below.
        let scenario = try loadScenario(minimalScenarioYAML)
        var hash: UInt64 = 14_695_981_039_346_656_037
        for byte in scenario.canonicalJSON.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        #expect(scenario.canonicalHash == String(format: "%016llx", hash))
    }
}
