import Foundation
import Testing
@testable import CitySim

/// The `planner` section is read as strictly as the rest of a scenario.
@Suite struct PlannerScenarioTests {
    static func error(_ planner: String) -> ScenarioError? {
        scenarioError(minimalScenarioYAML + "\nplanner:\n" + planner)
    }

    static let profile = """
          profiles:
            - name: commuter
              share: 1
              appointments:
                - { title: Work, start_hours: [8, 9], hours: 8 }
        """

    @Test("a valid planner section loads with its defaults")
    func validSectionLoads() throws {
        let scenario = try loadScenario(minimalScenarioYAML + "\nplanner:\n  users: 10\n  date: 2025-03-14\n" + Self.profile)
        let planner = try #require(scenario.planner)
        #expect(planner.users == 10 && planner.planAtHours == 0 && planner.expectedTaxiWaitMinutes == 5)
        #expect(planner.profiles[0].criteria.fastest == 1 && planner.profiles[0].dayStartHours == 6...6)
        #expect(planner.profiles[0].appointments[0].startHours == 8...9)
    }

    @Test("a negative share is a located range error")
    func negativeShareIsLocated() throws {
        let error = try #require(Self.error("  users: 10\n  date: 2025-03-14\n"
            + Self.profile.replacingOccurrences(of: "share: 1", with: "share: -1")))
        #expect(error.keyPath == "planner.profiles[0].share")
        #expect(error.reason == "expected a number >= 0, got -1")
        #expect(error.line == 17)
        #expect(error.description.hasPrefix("test.yaml:17: planner.profiles[0].share: "))
    }

    @Test("an unknown planner key lists the known ones")
    func unknownKeyListsKnownKeys() throws {
        let error = try #require(Self.error("  users: 10\n  date: 2025-03-14\n  crowd: 3\n" + Self.profile))
        #expect(error.keyPath == "planner.crowd")
        #expect(error.reason.contains("unknown key 'crowd'") && error.reason.contains("plan_at_hours"))
    }

    @Test("a bad date, hour or means name is refused with the key path")
    func badValuesAreRefused() throws {
        let base = "  users: 10\n  date: 2025-03-14\n"
        let cases: [(String, String)] = [
            ("  users: 10\n  date: 2025-02-30\n" + Self.profile, "planner.date"),
            (base + "  plan_at_hours: 24\n" + Self.profile, "planner.plan_at_hours"),
            (base + "  rain_hours: [7, 24]\n" + Self.profile, "planner.rain_hours[1]"),
            (base + "  disabled_means: [teleport]\n" + Self.profile, "planner.disabled_means[0]"),
            (base + "  strike: { from_hours: 10, until_hours: 9 }\n" + Self.profile, "planner.strike.until_hours"),
            (base + Self.profile.replacingOccurrences(of: "hours: 8 }", with: "hours: 8, minutes: 30 }"),
             "planner.profiles[0].appointments[0]"),
            (base + Self.profile.replacingOccurrences(of: "title: Work,", with: "title: Work, near: Home,"),
             "planner.profiles[0].appointments[0]"),
            (base + Self.profile.replacingOccurrences(of: "[8, 9]", with: "[9, 8]"),
             "planner.profiles[0].appointments[0].start_hours"),
            ("  date: 2025-03-14\n" + Self.profile, "planner.users"),
        ]
        for (planner, keyPath) in cases {
            let error = try #require(Self.error(planner), "\(keyPath) should fail")
            #expect(error.keyPath == keyPath, "\(error)")
            #expect(error.line != nil, "\(error)")
        }
    }
}
