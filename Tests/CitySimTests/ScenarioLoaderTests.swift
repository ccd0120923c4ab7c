import Foundation
import Testing
@testable import CitySim

/// Strict decoding: every error names the file, the key path and the reason.
@Suite struct ScenarioLoaderTests {
    @Test("unknown key error names the key path, the file and the known keys")
    func unknownKeyNamesKeyPathAndFile() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "taxis: 2 }", with: "taxis: 2, colour: red }")
        let error = try #require(scenarioError(yaml))
        #expect(error.file == "test.yaml")
        #expect(error.keyPath == "fleet.shifts[1].colour")
        #expect(error.reason.contains("unknown key 'colour'"))
        #expect(error.reason.contains("known: name, start, end, taxis, stagger_minutes"))
        #expect(error.line == 11)
        #expect(error.description.hasPrefix("test.yaml:11: fleet.shifts[1].colour: unknown key"))
    }

    @Test("wrong type error states the expected type")
    func wrongTypeStatesExpectedType() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "width_km: 4", with: "width_km: wide")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.width_km")
        #expect(error.reason == "expected a number > 0, got 'wide'")
        #expect(error.line == 3)
    }

    @Test("quoted number is a type error")
    func quotedNumberIsATypeError() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "width_km: 4", with: "width_km: \"4\"")
        let error = try #require(scenarioError(yaml))
        #expect(error.reason.contains("expected a number"))
    }

    @Test("out-of-range error states the range")
    func outOfRangeStatesTheRange() throws {
        let error = try #require(scenarioError(minimalScenarioYAML + "\ndrivers: { accept_probability: 1.5 }"))
        #expect(error.keyPath == "drivers.accept_probability")
        #expect(error.reason == "expected a number in [0, 1], got 1.5")
    }

    @Test("a maximum trip length not above the minimum is refused")
    func maximumTripMustExceedMinimum() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(
            of: "requests_per_hour: 60", with: "requests_per_hour: 60\n  min_trip_km: 2\n  max_trip_km: 1")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "demand.max_trip_km")
        #expect(error.reason.contains("> min_trip_km"))
    }

    @Test("missing required key is named")
    func missingRequiredKeyIsNamed() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "name: minimal\n", with: "")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "name")
        #expect(error.reason == "missing required key 'name'")
    }

    @Test("missing required key inside a sequence element names the element")
    func missingKeyInSequenceElementNamesElement() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: ", taxis: 2 }", with: " }")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "fleet.shifts[1].taxis")
    }

    @Test("YAML syntax error reports the file and line")
    func syntaxErrorReportsLine() throws {
        let yaml = minimalScenarioYAML + "\nvalidation: { enabled: true\n"
        let error = try #require(scenarioError(yaml))
        #expect(error.file == "test.yaml")
        #expect(error.line != nil)
        #expect(error.reason.hasPrefix("YAML syntax error"))
        #expect(error.description.hasPrefix("test.yaml:\(error.line!): "))
    }

    @Test("duplicated key is an error with its line")
    func duplicatedKeyIsAnError() throws {
        let error = try #require(scenarioError(minimalScenarioYAML + "\nseed: 1\nseed: 2"))
        #expect(error.reason.contains("duplicated key 'seed'"))
        #expect(error.line != nil)
    }

    @Test("missing optional keys take their documented defaults")
    func defaultsAreFilled() throws {
        let scenario = try loadScenario(minimalScenarioYAML)
        #expect(scenario.seed == 1)
        #expect(scenario.durationHours == 24 && scenario.warmupHours == 0)
        #expect(scenario.city.metric == .manhattan && scenario.city.speedKmh == 30 && scenario.city.detourFactor == 1)
        #expect(scenario.city.speedFactorByHour == Array(repeating: 1, count: 24))
        #expect(scenario.demand.rateFactorByHour == Array(repeating: 1, count: 24))
        #expect(scenario.demand.scale == 1 && scenario.demand.patience == .zero && scenario.demand.customers == 0)
        #expect(scenario.fleet.scale == 1 && scenario.fleet.startPositions == .uniform)
        #expect(scenario.fleet.shifts[0].staggerMinutes == 0)
        #expect(scenario.drivers.acceptProbability == 1 && scenario.drivers.responseTime == .fixed(seconds: 0))
        #expect(scenario.drivers.rejoinAfterDecline == .exponential(meanSeconds: 120) && scenario.drivers.breaks == nil)
        #expect(scenario.dispatch.policy == .zoneFIFO && scenario.dispatch.offerTimeoutSeconds == 60)
        #expect(scenario.dispatch.onTimeout == .requeue && scenario.dispatch.onDecline == .unavailable)
        #expect(scenario.dispatch.reservationMinLeadSeconds == 7200 && scenario.dispatch.allocationLeadSeconds == 600)
        #expect(scenario.dispatch.mad == Scenario.MaximumAllowedDelay(factor: 1.5, slackSeconds: 120))
        #expect(scenario.dispatch.spatialCellKm == 1)
        #expect(scenario.validation.enabled == false)
        #expect(scenario.validation.serviceTime == .exponential(meanSeconds: 600))
    }

    @Test("zone area is converted to a side")
    func zoneAreaGivesSide() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "{ side_km: 1 }", with: "{ area_km2: 2 }")
        let scenario = try loadScenario(yaml)
        #expect(abs(scenario.city.zone.sideKm - 2.0.squareRoot()) < 1e-12)
        #expect(scenario.dispatch.spatialCellKm == 1)
    }

    @Test("zone with both side and area is an error")
    func zoneWithSideAndAreaIsAnError() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "{ side_km: 1 }", with: "{ side_km: 1, area_km2: 1 }")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.zone")
        #expect(error.reason.contains("exactly one of side_km and area_km2"))
    }

    @Test("zone larger than the city is an error")
    func zoneLargerThanCityIsAnError() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "{ side_km: 1 }", with: "{ side_km: 3.5 }")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.zone.side_km")
    }

    @Test("hotspot outside the city is an error")
    func hotspotOutsideCityIsAnError() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(
            of: "  zone: { side_km: 1 }", with: "  zone: { side_km: 1 }\n  hotspots: [{ name: pier, x_km: 5, y_km: 1 }]")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.hotspots[0].x_km")
        #expect(error.reason == "expected a number in [0, 4], got 5")
    }

    @Test("hourly profile must have 24 values")
    func hourlyProfileNeeds24Values() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(
            of: "requests_per_hour: 60", with: "requests_per_hour: 60\n  rate_factor_by_hour: [1, 2, 3]")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "demand.rate_factor_by_hour")
        #expect(error.reason == "expected a sequence of exactly 24 numbers, got 3")
    }

    @Test("origin weights must have a positive sum")
    func originWeightsNeedPositiveSum() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "  zone: { side_km: 1 }", with: """
              zone: { side_km: 1 }
              uniform_weight: 0
              hotspots: [{ name: pier, x_km: 1, y_km: 1, origin_weight: 0 }]
            """)
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.uniform_weight")
        #expect(error.reason.contains("positive sum"))
    }

    @Test("malformed shift time is an error")
    func malformedShiftTimeIsAnError() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "\"06:00\", end: \"14:00\"", with: "\"6am\", end: \"14:00\"")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "fleet.shifts[0].start")
        #expect(error.reason.contains("HH:MM"))
    }

    @Test("a shift wrapping midnight lasts until the next morning")
    func shiftWrapsMidnight() throws {
        let night = try loadScenario(minimalScenarioYAML).fleet.shifts[1]
        #expect(night.start.hours == 22 && night.end.hours == 6)
        #expect(night.durationMinutes == 8 * 60)
    }

    @Test("warm-up not shorter than the duration is an error")
    func warmupMustBeShorterThanDuration() throws {
        let error = try #require(scenarioError(minimalScenarioYAML + "\nduration_hours: 2\nwarmup_hours: 2"))
        #expect(error.keyPath == "warmup_hours")
    }

    @Test("unknown policy name lists the known ones")
    func unknownPolicyListsKnownOnes() throws {
        let error = try #require(scenarioError(minimalScenarioYAML + "\ndispatch: { policy: random }"))
        #expect(error.keyPath == "dispatch.policy")
        #expect(error.reason == "unknown value 'random' (known: zone-fifo, nearest-idle, batch)")
    }

    @Test("distribution parameter of another kind is an error")
    func distributionParameterOfOtherKindIsAnError() throws {
        let error = try #require(scenarioError(
            minimalScenarioYAML + "\ndrivers: { response_time: { kind: exponential, mean_s: 5, cv: 1 } }"))
        #expect(error.keyPath == "drivers.response_time.cv")
        #expect(error.reason.contains("does not apply to kind 'exponential'"))
    }

    @Test("distribution kind not allowed for the field is an error")
    func distributionKindNotAllowedIsAnError() throws {
        let error = try #require(scenarioError(minimalScenarioYAML + "\nvalidation: { service_time: { kind: infinite } }"))
        #expect(error.keyPath == "validation.service_time.kind")
        #expect(error.reason.contains("not allowed here"))
    }

    @Test("missing file is an error naming it")
    func missingFileIsAnError() {
        #expect(throws: ScenarioError.self) { try Scenario.load(path: "/nonexistent/nope.yaml") }
    }
}

// MARK: - Fixtures shared by the Scenario*Tests files

/// The smallest valid scenario; tests append or replace lines to probe one rule at a time.
let minimalScenarioYAML = """
    name: minimal
    city:
      width_km: 4
      height_km: 3
      zone: { side_km: 1 }
    demand:
      requests_per_hour: 60
    fleet:
      shifts:
        - { name: day, start: "06:00", end: "14:00", taxis: 5 }
        - { name: night, start: "22:00", end: "06:00", taxis: 2 }
    """

/// Loads YAML text as file `test.yaml`.
func loadScenario(_ yaml: String, overrides: [String] = []) throws(ScenarioError) -> Scenario {
    try Scenario.load(yaml: yaml, file: "test.yaml", overrides: overrides)
}

/// The error loading `yaml` throws, or nil when it loads.
func scenarioError(_ yaml: String, overrides: [String] = []) -> ScenarioError? {
    do {
        _ = try loadScenario(yaml, overrides: overrides)
        return nil
    } catch {
        return error
    }
}

/// `Scenarios/` of the package, found from this file's path.
let scenariosDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scenarios")
