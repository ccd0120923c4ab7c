import Foundation
import Testing
@testable import CitySim

/// Every file in Scenarios/ loads; the named scenarios hold what their descriptions promise.
@Suite struct ScenarioBundledTests {
    static func bundledFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? []
        // No exceptions: `citysim serve` configs live in Service/, so every YAML file here must be a scenario.
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    static func bundled(_ name: String) throws -> Scenario {
        try Scenario.load(path: scenariosDirectory.appendingPathComponent(name).path)
    }

    @Test("every file in Scenarios/ loads", arguments: bundledFiles())
    func everyBundledScenarioLoads(file: String) throws {
        let scenario = try Self.bundled(file)
        #expect(scenario.name + ".yaml" == file)
    }

    @Test("the five promised scenarios are bundled")
    func promisedScenariosAreBundled() {
        let files = Set(Self.bundledFiles())
        for name in ["smoke", "seeds-reference", "rush-hour", "city-scale", "one-zone-erlang"] {
            #expect(files.contains("\(name).yaml"), "missing Scenarios/\(name).yaml")
        }
    }

    @Test("smoke is small: 4x4 km, 60 taxis, 2 hours")
    func smokeIsSmall() throws {
        let smoke = try Self.bundled("smoke.yaml")
        #expect(smoke.city.widthKm == 4 && smoke.city.heightKm == 4)
        #expect(abs(smoke.city.zone.areaKm2 - 1) < 1e-9)   // 4 × 4 whole squares
        #expect(smoke.fleet.totalTaxis == 60)
        #expect(smoke.durationHours == 2)
    }

    @Test("seeds-reference encodes the documents' rules")   // D1 D4 D5 D11
    func seedsReferenceFollowsTheDocuments() throws {
        let seeds = try Self.bundled("seeds-reference.yaml")
        #expect(abs(seeds.city.zone.areaKm2 - 2) < 1e-9)
        #expect(seeds.dispatch.offerTimeoutSeconds == 60)
        #expect(seeds.dispatch.onTimeout == .requeue)
        #expect(seeds.dispatch.onDecline == .unavailable)
        #expect(seeds.dispatch.reservationMinLeadSeconds == 7200)
        #expect(seeds.dispatch.allocationLeadSeconds == 600)
        #expect(seeds.dispatch.reservationCancelCutoffSeconds == 600)
        #expect(seeds.fleet.shifts.map { "\($0.start)-\($0.end)" } == ["06:00-14:00", "14:00-22:00", "22:00-06:00"])
    }

    @Test("rush-hour has about 19,000 requests a day and 1,900 taxis")
    func rushHourIsMidSize() throws {
        let rush = try Self.bundled("rush-hour.yaml")
        #expect(abs(rush.demand.expectedRequestsPerDay - 19_200) < 500)
        #expect(rush.fleet.totalTaxis == 1_900)
        let peaks = [7, 8, 17, 18].map(rush.demand.rate(atHour:))
        #expect(peaks.allSatisfy { $0 > rush.demand.requestsPerHour * 1.5 })
        #expect([7, 17].allSatisfy { rush.city.speedKmh(atHour: $0) < rush.city.speedKmh })
    }

    @Test("calendar-day is the rush-hour city and fleet with a few thousand planner users on the bundled feed")
    func calendarDayHasPlannerUsers() throws {
        let calendar = try Self.bundled("calendar-day.yaml")
        let rush = try Self.bundled("rush-hour.yaml")
        #expect(calendar.city == rush.city && calendar.fleet == rush.fleet && calendar.demand == rush.demand)
        let planner = try #require(calendar.planner)
        #expect((1_000...10_000).contains(planner.users))
        #expect(planner.transit?.gtfs == "gtfs/rush-hour" && planner.profiles.count >= 3)
        #expect(calendar.warmupHours == 0)
    }

    @Test("city-scale has about 13,000 taxis and 500,000 requests")
    func cityScaleIsLarge() throws {
        let city = try Self.bundled("city-scale.yaml")
        #expect(city.fleet.totalTaxis == 13_000)
        #expect(abs(city.demand.expectedRequestsPerDay - 500_000) < 5_000)
    }

    @Test("one-zone-erlang is an M/M/20/20 system at 16.67 Erlang")
    func oneZoneErlangIsALossSystem() throws {
        let erlang = try Self.bundled("one-zone-erlang.yaml")
        #expect(erlang.city.zone.sideKm == erlang.city.widthKm)
        #expect(erlang.validation.enabled && erlang.validation.pickup == .instant)
        #expect(erlang.demand.patience == .zero)
        #expect(erlang.fleet.totalTaxis == 20)
        let offered = erlang.demand.rate(atHour: 0) * erlang.validation.serviceTime.meanSeconds / 3600
        #expect(abs(offered - 50.0 / 3) < 1e-9)
    }
}
