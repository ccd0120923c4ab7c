import DispatchCore
import Foundation
import RoadNetwork
import Testing
@testable import CitySim

/// A city on a real road network (`city.road_network`): reading, places on the roads, travel on the roads, lat/lon out.
@Suite("Road cities")
struct RoadCityTests {
    static let gridFile = scenariosDirectory.appendingPathComponent("osm/synthetic-grid.osm").path

    /// The hand-made 3 × 3 grid (about 200 × 200 m, ~100 m blocks) in four 100 m square zones,
    /// with a hotspot at E (the middle node, on the one-way middle street) given in lat/lon.
    static func gridYAML(osm: String = gridFile, city extra: String = "", hotspot: String = "lat: 60.0009, lon: 25.0018") -> String {
        """
        name: synthetic-roads
        duration_hours: 3
        city:
          road_network:
            osm: \(osm)
            congestion_by_hour: { default: [1, 1, 1, 1, 1, 1, 1, 1.5, 1.5, 1, 1, 1, 1, 1, 1, 1, 1, 1.5, 1.5, 1, 1, 1, 1, 1] }
          zone: { side_km: 0.1 }
          hotspots:
            - { name: middle, \(hotspot), radius_km: 0.05, origin_weight: 1, destination_weight: 1 }
        \(extra)
        demand:
          requests_per_hour: 40
          patience: { kind: exponential, mean_s: 300 }
        fleet:
          shifts:
            - { name: all, start: "00:00", end: "24:00", taxis: 4 }
        drivers:
          idle: drift
          travel_time_cv: 0
        """
    }

    static func grid(_ overrides: [String] = []) throws -> Scenario {
        try loadScenario(gridYAML(), overrides: overrides)
    }

    @Test("a road scenario reads: the city is the network's bounding box and lat/lon hotspots are projected")
    func roadScenarioReads() throws {
        let scenario = try Self.grid()
        let city = scenario.city
        let graph = try RoadGraphBuilder.load(path: Self.gridFile).graph
        #expect(city.roadNetwork?.osm == Self.gridFile)
        #expect(abs(city.widthKm * 1000 - graph.positions.map(\.x).max()!) < 1e-9)
        #expect(abs(city.heightKm * 1000 - graph.positions.map(\.y).max()!) < 1e-9)
        #expect(try city.geometry().zoneCount == 4)
        let e = graph.projection.project(LatLon(latitude: 60.0009, longitude: 25.0018))
        #expect(abs(city.hotspots[0].xKm * 1000 - e.x) < 1e-9 && abs(city.hotspots[0].yKm * 1000 - e.y) < 1e-9)
        // The canonical document names the resolved file and the lat/lon, and loads back to the same scenario.
        #expect(try loadScenario(scenario.canonicalJSON) == scenario)
    }

    @Test("the road network path is relative to the scenario file")
    func osmPathIsRelativeToTheScenario() throws {
        let scenario = try Scenario.load(yaml: Self.gridYAML(osm: "osm/synthetic-grid.osm"),
                                         file: scenariosDirectory.appendingPathComponent("made-up.yaml").path)
        #expect(scenario.city.roadNetwork?.osm == Self.gridFile)
    }

    @Test("a bad road scenario is an error naming the file, the field and the reason", arguments: [
        (gridYAML(osm: "/nonexistent/city.osm.pbf"), "city.road_network.osm", "no such file"),
        (gridYAML(osm: garbagePBF()), "city.road_network.osm", "malformed"),
        (gridYAML(city: "  width_km: 3"), "city.width_km", "does not apply to a city with a road_network"),
        (gridYAML(city: "  metric: euclidean"), "city.metric", "does not apply"),
        (gridYAML(city: "  speed_kmh: 40"), "city.speed_kmh", "does not apply"),
        (gridYAML(hotspot: "lat: 60.0009, lon: 25.0018, x_km: 0.1"), "city.hotspots[0].x_km", "not both"),
        (gridYAML(hotspot: "lat: 61, lon: 25.0018"), "city.hotspots[0].lat", "outside the road network"),
        (gridYAML().replacingOccurrences(of: "{ default:", with: "{ highway_to_hell:"),
         "city.road_network.congestion_by_hour.highway_to_hell", "unknown road class"),
        (gridYAML().replacingOccurrences(of: "[1, 1, 1, 1, 1, 1, 1, 1.5", with: "[0, 1, 1, 1, 1, 1, 1, 1.5"),
         "city.road_network.congestion_by_hour.default[0]", "expected a number > 0"),
        (minimalScenarioYAML.replacingOccurrences(of: "zone: { side_km: 1 }",
                                                  with: "zone: { side_km: 1 }\n  hotspots: [{ name: a, lat: 60, lon: 25 }]"),
         "city.hotspots[0].lat", "need a city with a road_network"),
    ])
    func roadScenarioErrorsNameFileFieldAndReason(yaml: String, keyPath: String, reason: String) {
        let error = scenarioError(yaml)
        #expect(error?.file == "test.yaml")
        #expect(error?.keyPath == keyPath, "\(String(describing: error))")
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
    }

    /// A file that is not a PBF extract.
    static func garbagePBF() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("road-city-tests-garbage.osm.pbf").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("this is not a protobuf blob".utf8))
        return path
    }

    @Test("every place drawn in a road city lies on the road network and in a zone")
    func drawnPlacesLieOnTheNetwork() throws {
        let city = try CityModel(scenario: try Self.grid(["demand.min_trip_km=0.05"]))
        let router = try #require(city.roads)
        let random = RandomStreams(seed: 3).places
        var places: [Position] = []
        for _ in 0..<300 {
            let origin = city.drawOrigin(random)
            places += [origin, try city.drawDestination(from: origin, random), city.drawStart(random, nearHotspots: false),
                       city.drawStart(random, nearHotspots: true)]
        }
        places += city.hotspots.compactMap { city.nearestHotspot(to: $0.centre) }
        for place in places {
            #expect(router.snap(place).distance < 1e-9, "\(place) is \(router.snap(place).distance) m off the road")
            #expect(city.geometry.contains(place))
        }
    }

    @Test("a road city's travel times are RoadRouter's: the core's ETAs and the simulated rides")
    func travelTimesAreRoadRouterTimes() throws {
        let scenario = try Self.grid()
        let graph = try RoadGraphBuilder.load(path: Self.gridFile).graph
        let reference = RoadRouter(graph: graph, congestion: try #require(scenario.city.roadNetwork).congestion)
        let core = try scenario.makeDispatchCore()
        let random = RandomStreams(seed: 5).places
        for _ in 0..<200 {
            let a = Position(x: random.uniform() * 200, y: random.uniform() * 200)
            let b = Position(x: random.uniform() * 200, y: random.uniform() * 200)
            let t = random.uniform() * 86_400
            #expect(core.travel.travelTime(from: a, to: b, departingAt: t) == reference.route(from: a, to: b, departingAt: t).seconds)
        }
        // Without drive noise a ride lasts exactly the router's time from its pickup.
        let result = try CitySimulation(scenario: scenario).run()
        let served = result.rides.filter { $0.dropoffAt != nil }
        #expect(served.count > 20)
        for ride in served {
            let pickup = try #require(ride.pickupAt)
            let expected = reference.route(from: Position(x: ride.originX, y: ride.originY),
                                           to: Position(x: ride.destinationX, y: ride.destinationY), departingAt: pickup).seconds
            #expect(abs(try #require(ride.dropoffAt) - pickup - expected) < 1e-6)
        }
    }

    @Test("rides.csv of a road city carries lat/lon that project back onto origin_x/y and destination_x/y")
    func ridesCSVLatLonRoundTrips() throws {
        let result = try CitySimulation(scenario: try Self.grid()).run()
        let projection = try #require(result.roads?.projection)
        let lines = ResultWriter.ridesCSV(result).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        #expect(Array(header.suffix(4)) == ["origin_lat", "origin_lon", "destination_lat", "destination_lon"])
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name)) }
        let columns = try (x: column("origin_x"), y: column("origin_y"), lat: column("origin_lat"), lon: column("origin_lon"),
                           dx: column("destination_x"), dy: column("destination_y"), dlat: column("destination_lat"), dlon: column("destination_lon"))
        #expect(lines.count > 20)
        for row in lines.dropFirst() {
            #expect(row.count == header.count)
            let origin = projection.project(LatLon(latitude: Double(row[columns.lat])!, longitude: Double(row[columns.lon])!))
            let destination = projection.project(LatLon(latitude: Double(row[columns.dlat])!, longitude: Double(row[columns.dlon])!))
            // x/y are written to the millimetre and degrees to 1e-7 (≤ 1.2 cm).
            #expect(abs(origin.x - Double(row[columns.x])!) < 0.02 && abs(origin.y - Double(row[columns.y])!) < 0.02)
            #expect(abs(destination.x - Double(row[columns.dx])!) < 0.02 && abs(destination.y - Double(row[columns.dy])!) < 0.02)
        }
    }

    @Test("a grid city's rides.csv has no lat/lon columns")
    func gridRidesCSVHasNoLatLon() throws {
        let result = try CitySimulation(scenario: try SimulationRunTests.scenario("smoke.yaml", ["duration_hours=0.5"])).run()
        #expect(ResultWriter.ridesCSV(result).prefix(while: { $0 != "\n" }).hasSuffix(",timeouts,fare"))
        #expect(result.roads == nil)
    }

    @Test("the report of a road city draws its road network under the zone map")
    func reportDrawsTheRoads() throws {
        let result = try CitySimulation(scenario: try Self.grid()).run()
        let html = ReportPage.html(for: result)
        let roads = try #require(result.roads)
        // The 3 × 3 grid's kept streets: 12 block sides less the two of the private centre street, each drawn once.
        #expect(ReportCharts.roadSegments(roads).count == 10)
        #expect(html.contains("stroke=\"#333\" stroke-width=\"0.6\""))
        #expect(html.contains("road nodes beneath"))
        #expect(html.contains("fill-opacity=\"0.7\""))
    }
}
