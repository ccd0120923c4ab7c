import Testing
@testable import CitySim

/// `key.path=value` overrides edit the YAML tree before strict decoding.
@Suite struct ScenarioOverrideTests {
    @Test("override sets existing and absent keys")
    func overrideApplies() throws {
        let scenario = try loadScenario(minimalScenarioYAML, overrides: [
            "fleet.scale=1.5", "dispatch.policy=nearest-idle", "demand.scale=10", "fleet.shifts[1].taxis=4",
        ])
        #expect(scenario.fleet.scale == 1.5)
        #expect(scenario.dispatch.policy == .nearestIdle)
        #expect(scenario.demand.scale == 10)
        #expect(scenario.fleet.shifts[1].taxis == 4)
        #expect(scenario.fleet.totalTaxis == 8 + 6)
    }

    @Test("zone side override replaces a zone area")
    func zoneSideOverrideReplacesArea() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "{ side_km: 1 }", with: "{ area_km2: 2 }")
        let scenario = try loadScenario(yaml, overrides: ["city.zone.side_km=2"])
        #expect(scenario.city.zone.sideKm == 2)
    }

    @Test("override value can be a YAML flow collection")
    func overrideTakesFlowCollection() throws {
        let scenario = try loadScenario(minimalScenarioYAML, overrides: ["drivers.response_time={kind: fixed, value_s: 5}"])
        #expect(scenario.drivers.responseTime == .fixed(seconds: 5))
    }

    @Test("override of an unknown key path fails naming the override")
    func overrideOfUnknownKeyFails() throws {
        let error = try #require(scenarioError(minimalScenarioYAML, overrides: ["fleet.sclae=2"]))
        #expect(error.file == "test.yaml")
        #expect(error.keyPath == "fleet.sclae")
        #expect(error.reason.hasPrefix("override 'fleet.sclae=2': unknown key 'sclae'"))
    }

    @Test("override of an unknown top-level section fails")
    func overrideOfUnknownSectionFails() throws {
        let error = try #require(scenarioError(minimalScenarioYAML, overrides: ["weather.rain=1"]))
        #expect(error.keyPath == "weather")
    }

    @Test("override with a bad value fails like the file would")
    func overrideWithBadValueFails() throws {
        let error = try #require(scenarioError(minimalScenarioYAML, overrides: ["demand.scale=-1"]))
        #expect(error.keyPath == "demand.scale")
        #expect(error.reason == "override 'demand.scale=-1': expected a number >= 0, got -1")
        #expect(error.line == nil)
    }

    @Test("override index out of range fails")
    func overrideIndexOutOfRangeFails() throws {
        let error = try #require(scenarioError(minimalScenarioYAML, overrides: ["fleet.shifts[5].taxis=1"]))
        #expect(error.keyPath == "fleet.shifts")
        #expect(error.reason.contains("index 5 out of range"))
    }

    @Test("override without '=' fails")
    func overrideWithoutEqualsFails() throws {
        let error = try #require(scenarioError(minimalScenarioYAML, overrides: ["fleet.scale"]))
        #expect(error.reason.contains("expected key.path=value"))
    }
}
