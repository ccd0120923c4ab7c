import Foundation
import Testing
import TripPlanner
@testable import CitySim

/// The `plan-day` day file loader: strict like the scenario loader, errors located as `file:line: key.path: reason`.
@Suite struct DayFileTests {
    /// A label inside Scenarios/days/, so the day's relative `city` path resolves.
    static let file = scenariosDirectory.appendingPathComponent("days/test-day.yaml").path

    static let yaml = """
        city: ../rush-hour.yaml
        date: 2025-03-14
        home: { x_km: 2.3, y_km: 4.4 }
        appointments:
          - { id: work, x_km: 6.3, y_km: 5.2, start: "09:00", end: "17:00" }
        """

    static func error(_ yaml: String) throws -> DayFileError {
        do {
            _ = try DayFile.load(yaml: yaml, file: file)
        } catch let error as DayFileError {
            return error
        }
        throw DayFileTestFailure.loaded
    }

    enum DayFileTestFailure: Error { case loaded }

    @Test("the bundled example day loads with its appointments, vehicles, weather, feed and taxis")
    func exampleDayLoads() throws {
        let day = try DayFile.load(path: scenariosDirectory.appendingPathComponent("days/example-day.yaml").path)
        #expect(day.appointments.map(\.id.rawValue) == ["work", "lunch", "gym", "dinner"])
        #expect(day.planner.conditions.ownsCar && day.planner.conditions.ownsBike)
        #expect(day.planner.conditions.weather.rainyHours == [13, 14, 15, 16, 17])
        #expect(day.planner.conditions.now == 6.5 * 3600 && day.planner.conditions.dayStart == 7 * 3600)
        #expect(day.planner.transit != nil && day.planner.taxi != nil)
        #expect(day.planner.conditions.preferences.maximumWalkingDistance == 1_200)
    }

    @Test("left-out keys take their defaults: leave at 06:00, plan then, no transit, no taxi")
    func defaultsApply() throws {
        let day = try DayFile.load(yaml: Self.yaml, file: Self.file)
        #expect(day.planner.conditions.dayStart == 6 * 3600 && day.planner.conditions.now == 6 * 3600)
        #expect(!day.planner.conditions.ownsCar && !day.planner.conditions.seasonPass)
        #expect(day.planner.transit == nil && day.planner.taxi == nil)
        #expect(day.appointments.first?.timing == .fixed(start: 9 * 3600, end: 17 * 3600, breaksAllowed: false))
    }

    @Test("an unknown key names its path, its line and the known keys")
    func unknownKeyIsLocated() throws {
        let error = try Self.error(Self.yaml + "\nparking: true")
        #expect(error.keyPath == "parking" && error.line == 6)
        #expect(error.reason.contains("unknown key 'parking'") && error.reason.contains("appointments"))
        #expect(error.description.hasPrefix(Self.file + ":6: parking: unknown key"))
    }

    @Test("an appointment both fixed and flexible is refused at the appointment")
    func fixedAndFlexibleIsRefused() throws {
        let error = try Self.error(Self.yaml.replacingOccurrences(of: "end: \"17:00\" }", with: "end: \"17:00\", minutes: 30 }"))
        #expect(error.keyPath == "appointments[0]" && error.reason.contains("not both"))
    }

    @Test("a duplicate appointment id is refused")
    func duplicateIDIsRefused() throws {
        let error = try Self.error(Self.yaml + "\n  - { id: work, x_km: 1, y_km: 1, window: [\"12:00\", \"14:00\"], minutes: 30 }")
        #expect(error.keyPath == "appointments[1]" && error.reason == "duplicate id 'work'")
    }

    @Test("a place outside the city is refused with the coordinate's path")
    func placeOutsideTheCityIsRefused() throws {
        let error = try Self.error(Self.yaml.replacingOccurrences(of: "x_km: 6.3", with: "x_km: 13"))
        #expect(error.keyPath == "appointments[0].x_km" && error.reason.contains("expected a number in"))
    }

    @Test("a missing city scenario and a bad date are reported at their keys")
    func cityAndDateErrorsAreLocated() throws {
        #expect(try Self.error(Self.yaml.replacingOccurrences(of: "../rush-hour.yaml", with: "../nowhere.yaml")).keyPath == "city")
        let date = try Self.error(Self.yaml.replacingOccurrences(of: "2025-03-14", with: "2025-02-30"))
        #expect(date.keyPath == "date" && date.line == 2)
    }
}
