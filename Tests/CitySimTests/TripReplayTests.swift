import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// Trip replay (`demand.trips`): requests at the trace's times and places, shifted onto the simulated day.
@Suite struct TripReplayTests {
    static let metreTrips = """
        t,ox,oy,dx,dy,note
        2024-02-29 23:59:00,100,100,200,200,before the window
        2024-03-01 08:00:00,500,500,3500,2500,a
        2024-03-01T08:30:15,1500,700,100,2900,b
        2024-03-01 17:45:00.500,3900,100,2000,1500,c
        2024-03-02 00:00:00,100,100,200,200,after the window
        """

    @Test("replayed requests come at the trace's times minus start, from the trace's origins to its destinations")
    func requestsKeepTheTracesTimesAndPlaces() throws {
        let scenario = try ReplayFixture.load(ReplayFixture.yaml(demand: ReplayFixture.metreDemand), files: ["trips.csv": Self.metreTrips])
        let simulation = try CitySimulation(scenario: scenario)
        _ = try simulation.run()
        let expectedTimes: [Double] = [28_800, 30_615, 63_900.5]   // 08:00, 08:30:15, 17:45:00.5
        #expect(simulation.rides.map(\.requestedAt) == expectedTimes)
        #expect(simulation.rides.map(\.origin) == [Position(x: 500, y: 500), Position(x: 1500, y: 700), Position(x: 3900, y: 100)])
        #expect(simulation.rides.map(\.destination) == [Position(x: 3500, y: 2500), Position(x: 100, y: 2900), Position(x: 2000, y: 1500)])
    }

    @Test("without start, the first trip's day starts at simulated 00:00; a start moves the window")
    func startShiftsTheWindow() throws {
        let demand = ReplayFixture.metreDemand.replacingOccurrences(of: "  start: \"2024-03-01 00:00:00\"\n", with: "")
            .replacingOccurrences(of: "\n  start: \"2024-03-01 00:00:00\"", with: "")
        let scenario = try ReplayFixture.load(ReplayFixture.yaml(demand: demand, duration: 48), files: ["trips.csv": Self.metreTrips])
        #expect(scenario.demand.trips?.startSeconds == Double(TraceTime.days(year: 2024, month: 2, day: 29)!) * 86_400)
        let simulation = try CitySimulation(scenario: scenario)
        _ = try simulation.run()
        #expect(simulation.rides.first?.requestedAt == Double(23 * 3600 + 59 * 60))   // 2024-02-29 23:59
        #expect(simulation.rides.count == 4)   // the trip at 2024-03-02 00:00 is 48 h after start: outside
    }

    @Test("latitude/longitude columns go through city.projection (equirectangular from the south-west corner)")
    func latLonColumnsAreProjected() throws {
        let csv = "when,plat,plon,dlat,dlon\n3600,40.7100,-74.0000,40.7200,-73.9800\n"
        let demand = """
            trips:
              file: trips.csv
              columns: { pickup_time: when, origin_lat: plat, origin_lon: plon, destination_lat: dlat, destination_lon: dlon }
            """
        let yaml = ReplayFixture.yaml(demand: demand, city: "projection: { south_west: [40.70, -74.02] }")
        let scenario = try ReplayFixture.load(yaml, files: ["trips.csv": csv])
        let simulation = try CitySimulation(scenario: scenario)
        _ = try simulation.run()
        let projection = EquirectangularProjection(southWestLatitude: 40.70, southWestLongitude: -74.02, cityHeightMetres: 3000)
        let ride = try #require(simulation.rides.first)
        #expect(ride.requestedAt == 3600)
        #expect(ride.origin == projection.position(latitude: 40.71, longitude: -74.0))
        #expect(abs(ride.origin.y - 0.01 * 111_195.08) < 0.01)
        #expect(ride.destination == projection.position(latitude: 40.72, longitude: -73.98))
    }

    @Test("a zone-ID trip's points lie in its zones (zone_base 1, hexagons too)", arguments: ["square", "hexagon"])
    func zonePointsLieInTheirZones(shape: String) throws {
        var csv = "t,PU,DO\n"
        for i in 0..<300 { csv += "\(i * 60),\(i % 6 + 1),\(5 - i % 5)\n" }
        let yaml = ReplayFixture.yaml(demand: ReplayFixture.zoneDemand("zone_base: 1")).replacingOccurrences(of: "zone: { side_km: 1 }",
                                                                             with: "zone: { shape: \(shape), side_km: 0.6 }")
        let scenario = try ReplayFixture.load(yaml, files: ["trips.csv": csv])
        let simulation = try CitySimulation(scenario: scenario)
        _ = try simulation.run()
        #expect(simulation.rides.count == 300)
        let geometry = simulation.city.geometry
        for (i, ride) in simulation.rides.enumerated() {
            #expect(try geometry.zone(of: ride.origin).index == i % 6)
            #expect(try geometry.zone(of: ride.destination).index == 4 - i % 5)
        }
        #expect(Set(simulation.rides.map(\.origin)).count == 300)   // drawn anew for every trip
    }

    @Test("the same seed replays the same requests byte for byte; another replication draws other zone points")
    func replayIsDeterministic() throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent("trip-replay.yaml").path)
        let first = try CitySimulation(scenario: scenario, seed: 3).run()
        let second = try CitySimulation(scenario: scenario, seed: 3).run()
        let other = try CitySimulation(scenario: scenario, seed: 3, replication: 1).run()
        #expect(ResultWriter.ridesCSV(first) == ResultWriter.ridesCSV(second))
        #expect(try ResultWriter.json(first.summary.withoutTimings) == ResultWriter.json(second.summary.withoutTimings))
        #expect(ResultWriter.ridesCSV(first) != ResultWriter.ridesCSV(other))
        #expect(first.summary.requests.generated == other.summary.requests.generated)   // k = 1: every trip of the day
    }

    @Test("every replayed request ends in exactly one state, and the core's invariants hold")
    func replayedRequestsAreConserved() throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent("trip-replay.yaml").path,
                                         overrides: ["demand.scale=1.5"])
        let simulation = try CitySimulation(scenario: scenario)
        simulation.checksInvariants = true
        simulation.invariantCheckInterval = 13
        let r = try simulation.run().summary.requests
        #expect(r.generated > 1_500)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
    }

    @Test("the bundled TLC-layout file loads unedited: 264/265 rows dropped and counted")
    func bundledTraceLoads() throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent("trip-replay.yaml").path)
        let trace = try #require(scenario.demand.trips?.trace)
        #expect(trace.rows == trace.count + trace.droppedOutsideCity)
        #expect(trace.droppedOutsideCity > 0)
        #expect(trace.passengers > trace.count)
    }

    @Test("trace times: TLC, ISO 8601 with fraction and zone, and seconds")
    func traceTimesParse() {
        let day = Double(TraceTime.days(year: 2024, month: 1, day: 15)!) * 86_400
        #expect(day == 1_705_276_800)
        #expect(TraceTime.seconds("2024-01-15 08:15:30") == day + 8 * 3600 + 15 * 60 + 30)
        #expect(TraceTime.seconds("2024-01-15T08:15:30.25Z") == day + 8 * 3600 + 15 * 60 + 30.25)
        #expect(TraceTime.seconds("2024-01-15T08:15+01:00") == day + 8 * 3600 + 15 * 60)
        #expect(TraceTime.seconds("12.5") == 12.5)
        for bad in ["", "2024-13-01 00:00:00", "2023-02-29 10:00:00", "2024-01-15 08", "2024-01-15 08:15:30 PM", "nan", "inf", "8:15"] {
            #expect(TraceTime.seconds(bad) == nil, "\(bad)")
        }
    }

    @Test("the load generator plays the simulator's customers for replayed and fitted demand (same seed, same draws)",
          arguments: ["trip-replay.yaml", "od-demand.yaml"])
    func loadGeneratorPlaysTheSameCustomers(file: String) throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent(file).path)
        let simulation = try CitySimulation(scenario: scenario)
        _ = try simulation.run()
        let played = try ScenarioPlay(scenario: scenario).requests
        #expect(played.count > 1_000)
        #expect(played.map(\.time) == simulation.rides.map(\.requestedAt))
        #expect(played.map(\.origin) == simulation.rides.map(\.origin))
        #expect(played.map(\.destination) == simulation.rides.map(\.destination))
    }
}
