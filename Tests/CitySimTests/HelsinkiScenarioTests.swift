import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `Scenarios/helsinki.yaml`: the bundled road city runs, conserves requests and repeats itself.
@Suite("Helsinki scenario")
struct HelsinkiScenarioTests {
    static func helsinki(_ overrides: [String] = []) throws -> Scenario {
        try SimulationRunTests.scenario("helsinki.yaml", overrides)
    }

    @Test("helsinki.yaml is a road city of hexagons with lat/lon hotspots")
    func helsinkiIsARoadCity() throws {
        let city = try Self.helsinki().city
        #expect(city.roadNetwork?.osm.hasSuffix("Scenarios/osm/Helsinki.osm.pbf") == true)
        #expect(city.zone.shape == .hexagon)
        #expect(try city.geometry().zoneCount >= 10)
        #expect(city.hotspots.allSatisfy { $0.latitude != nil && $0.longitude != nil })
    }

    @Test("helsinki.yaml draws its demand from the districts' OD matrix, whatever its dispatch zones")
    func helsinkiDemandComesFromTheDistrictMatrix() throws {
        for zoning in [[], ["city.zone.shape=square", "city.zone.area_km2=0.16", "city.fit=equal-area"]] {
            let scenario = try Self.helsinki(zoning + ["duration_hours=9"])
            let od = try #require(scenario.demand.odMatrix)
            let districts = try #require(od.zones)
            #expect(districts.ids == ["1", "2", "3", "4", "5", "6"] && od.model.zoneIDs == districts.ids)
            let result = try CitySimulation(scenario: scenario).run()
            // helsinki.yaml's hexagons cover the whole box (nothing dropped); the equal-area block of squares does not.
            #expect(result.rides.count > 200 && ((result.summary.requests.droppedOutsideZones ?? 0) > 0) == !zoning.isEmpty)
            let geometry = try scenario.city.geometry()
            for ride in result.rides {
                let origin = Position(x: ride.originX, y: ride.originY)
                #expect(districts.zones.zoneIndex(at: origin) != nil && geometry.contains(origin))
            }
        }
    }

    @Test("helsinki.yaml runs and every request ends in exactly one outcome")
    func helsinkiConservesRequests() throws {
        let simulation = try CitySimulation(scenario: try Self.helsinki(["duration_hours=10"]))
        simulation.checksInvariants = true
        simulation.invariantCheckInterval = 13
        let summary = try simulation.run().summary
        let r = summary.requests
        #expect(r.generated > 300)
        #expect(r.served > r.generated * 9 / 10)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
    }

    @Test("a road city with the same seed gives byte-identical rides.csv and drivers.csv")
    func sameSeedSameOutput() throws {
        let scenario = try Self.helsinki(["duration_hours=4"])
        let first = try CitySimulation(scenario: scenario, seed: 3).run()
        let second = try CitySimulation(scenario: scenario, seed: 3).run()
        let other = try CitySimulation(scenario: scenario, seed: 4).run()
        #expect(ResultWriter.ridesCSV(first) == ResultWriter.ridesCSV(second))
        #expect(ResultWriter.driversCSV(first) == ResultWriter.driversCSV(second))
        #expect(try ResultWriter.json(first.summary.withoutTimings) == ResultWriter.json(second.summary.withoutTimings))
        #expect(ResultWriter.ridesCSV(first) != ResultWriter.ridesCSV(other))
    }
}
