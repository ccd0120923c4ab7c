import DispatchCore
import Foundation
import RoadNetwork
import Testing
@testable import CitySim

/// `city.zone.geojson`: real zones from a GeoJSON file in a road city (issue 13): they read, every
/// request's zone is the polygon it lies in, the queues and per-zone figures work unchanged, and bad
/// settings fail naming the file, the key and the reason.
@Suite("GeoJSON zones in scenarios")
struct GeoJSONZoneScenarioTests {
    static let zonesKey = "zone: { geojson: zones/helsinki-districts.geojson, id_property: id, name_property: name }"

    /// Scenarios/helsinki.yaml with its hexagons replaced by the six Helsinki districts (taken as given: its
    /// `fit: cover` line goes, as GeoJSON zones are not fitted).
    static func districtsYAML(zone: String = zonesKey) throws -> String {
        let helsinki = try String(contentsOf: scenariosDirectory.appendingPathComponent("helsinki.yaml"), encoding: .utf8)
        let hexagons = "zone: { shape: hexagon, area_km2: 0.08 }"
        guard helsinki.contains(hexagons), let fit = helsinki.range(of: "\n  fit: cover[^\n]*", options: .regularExpression) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return helsinki.replacingCharacters(in: fit, with: "").replacingOccurrences(of: hexagons, with: zone)
    }

    static func districts(_ overrides: [String] = [], zone: String = zonesKey) throws -> Scenario {
        try Scenario.load(yaml: try districtsYAML(zone: zone), file: scenariosDirectory.appendingPathComponent("districts.yaml").path,
                          overrides: overrides)
    }

    @Test("GeoJSON zones read: six named districts, clipped to the network's box, and the canonical form loads back")
    func districtsRead() throws {
        let scenario = try Self.districts()
        let spec = try #require(scenario.city.zone.polygons)
        #expect(spec.ids == ["1", "2", "3", "4", "5", "6"])
        #expect(spec.names.compactMap { $0 } == ["Hakaniemi", "Kaartinkaupunki", "Kaisaniemi", "Keskusta", "Kluuvi", "Siltasaari"])
        let layout = try scenario.city.geometry().layout
        #expect(layout.shape == .polygons && layout.zoneCount == 6)
        let b = layout.bounds
        #expect(b.minX >= 0 && b.minY >= 0 && b.maxX <= scenario.city.widthKm * 1000 + 1e-6 && b.maxY <= scenario.city.heightKm * 1000 + 1e-6)
        // Beside the scenario: the OD matrix's path stays relative, as trip files' do (a machine-independent hash).
        #expect(try Scenario.load(yaml: scenario.canonicalJSON, file: scenariosDirectory.appendingPathComponent("canonical.json").path) == scenario)
    }

    @Test("a run on GeoJSON zones conserves requests and puts every request in the district it starts in")
    func districtsRun() throws {
        // helsinki.yaml's demand.scale 2.7 makes up for the draws its hexagons drop; the districts drop none.
        let scenario = try Self.districts(["duration_hours=8", "demand.scale=1"])
        let simulation = try CitySimulation(scenario: scenario)
        simulation.checksInvariants = true
        simulation.invariantCheckInterval = 17
        let result = try simulation.run()
        let r = result.summary.requests
        #expect(r.generated > 200 && r.served > r.generated * 8 / 10)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
        let zones = try #require(scenario.city.zone.polygons).zones
        for ride in result.rides {
            let origin = Position(x: ride.originX, y: ride.originY)
            #expect(zones.zoneIndex(at: origin) == ride.originZone)
            // Brute force: the lowest district one of whose polygons contains the origin.
            let containing = zones.zones.indices.first { z in zones.zones[z].contains { $0.contains(origin) } }
            #expect(containing == ride.originZone)
        }
        #expect(result.summary.perZone.filter { $0.requests > 0 }.count >= 5)
    }

    @Test("bad GeoJSON zone settings fail naming the file, the key and the reason", arguments: [
        ("zone: { geojson: zones/missing.geojson }", "city.zone.geojson", "zones/missing.geojson"),
        ("zone: { geojson: zones/helsinki-districts.geojson, shape: hexagon }", "city.zone.shape", "does not apply to zones read from GeoJSON"),
        ("zone: { geojson: zones/helsinki-districts.geojson, id_property: borough }", "city.zone.geojson", "no zone ID: property \"borough\""),
        ("zone: { side_km: 0.2, id_property: id }", "city.zone.id_property", "applies only to zones read from a geojson file"),
    ])
    func badSettingsAreNamed(zone: String, keyPath: String, reason: String) throws {
        do {
            _ = try Self.districts(zone: zone)
            Issue.record("accepted \(zone)")
        } catch let error as ScenarioError {
            #expect(error.keyPath == keyPath, "\(error)")
            #expect(error.description.contains(reason), "\(error)")
            #expect(error.description.contains("districts.yaml"), "\(error)")
        }
    }

    @Test("GeoJSON zones need a projection: a rectangle city refuses them")
    func rectangleCityRefusesGeoJSON() {
        let yaml = "name: x\ncity: { width_km: 2, height_km: 2, zone: { geojson: zones/helsinki-districts.geojson } }\n"
            + "demand: { requests_per_hour: 1 }\nfleet: { shifts: [{ name: a, start: \"00:00\", end: \"08:00\", taxis: 1 }] }\n"
        #expect(throws: ScenarioError.self) { try Scenario.load(yaml: yaml, file: scenariosDirectory.appendingPathComponent("x.yaml").path) }
    }
}

extension GeoJSONZoneScenarioTests {
    @Test("helsinki-trips replays TLC-layout rows by GeoJSON district id: counts per district, points on the roads")
    func helsinkiTripsReplayByDistrictID() throws {
        let scenario = try SimulationRunTests.scenario("helsinki-trips.yaml", [])
        let spec = try #require(scenario.city.zone.polygons)
        let result = try CitySimulation(scenario: scenario).run()
        // The file's kept rows per pickup district (rows to 265, outside, are dropped).
        let csv = try String(contentsOf: scenariosDirectory.appendingPathComponent("trips/helsinki-sample.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let kept = rows.filter { $0[8] != "265" }
        #expect(result.rides.count == kept.count)
        let roads = try #require(CityModel(scenario: scenario).roads)
        var requests = [Int](repeating: 0, count: spec.ids.count)
        for ride in result.rides {
            let origin = Position(x: ride.originX, y: ride.originY)
            #expect(roads.snap(origin).distance < 1e-9)
            requests[ride.originZone] += 1
        }
        for (zone, id) in spec.ids.enumerated() {
            let expected = kept.filter { $0[7] == Substring(id) }.count
            // Each point is drawn in its district until its nearest road is in the district too.
            #expect(requests[zone] == expected, "district \(id): \(requests[zone]) requests, \(expected) rows")
        }
    }
}
