import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `demand.od_matrix.zones`: an OD matrix on demand zones of its own (a GeoJSON file), independent of the
/// dispatch zones (issue 13). Fixture: the 4 × 3 km test city placed at 60° N by `city.projection`, two
/// demand zones "west" (x < 2 km) and "east"; the matrix sends every trip west → east.
@Suite("OD matrix on demand zones")
struct DemandZoneODTests {
    static let kmEast = 1 / (111.32 * cos(60.0 * .pi / 180)), kmNorth = 1 / 111.32

    /// A feature spanning x in [x0, x1] km and y in [0, 3] km of the fixture city.
    static func feature(_ id: String, _ x0: Double, _ x1: Double) -> String {
        let ring = [(x0, 0.0), (x1, 0.0), (x1, 3.0), (x0, 3.0), (x0, 0.0)]
            .map { "[\(25 + $0.0 * kmEast), \(60 + $0.1 * kmNorth)]" }.joined(separator: ", ")
        return #"{"type": "Feature", "properties": {"code": "\#(id)"}, "geometry": {"type": "Polygon", "coordinates": [[\#(ring)]]}}"#
    }

    static let geojson = #"{"type": "FeatureCollection", "features": [\#(feature("west", -1, 2)), \#(feature("east", 2, 5))]}"#

    /// One pair, `origin` → `destination` in matrix zones, 30 requests an hour, with `ids` as `zone_ids`.
    static func matrix(ids: [String]? = ["west", "east"], zones: Int = 2, origin: Int = 0, destination: Int = 1) throws -> String {
        let pair = ODMatrix.Pair(origin: origin, destination: destination, trips: 10)
        let model = ODMatrix(method: "test", source: "test", zones: zones, zoneIDs: ids, days: 1, trips: 240, minHourTrips: 10,
                             ratePerHour: Array(repeating: 30, count: 24), allDay: [pair],
                             hours: (0..<24).map { ODMatrix.Hour(hour: $0, trips: 10, matrix: "hour", pairs: [pair]) })
        return String(decoding: try model.json(), as: UTF8.self)
    }

    static let odKey = "od_matrix: { file: od.json, zones: { geojson: zones.geojson, id_property: code } }"

    static func yaml(_ od: String = odKey, duration: Double = 6) -> String {
        ReplayFixture.yaml(demand: od, city: "projection: { south_west: [60.0, 25.0] }", duration: duration)
    }

    static func scenario(_ overrides: [String] = [], matrix: String? = nil) throws -> Scenario {
        try ReplayFixture.load(yaml(), files: ["od.json": try matrix ?? Self.matrix(), "zones.geojson": geojson], overrides: overrides)
    }

    /// The first `count` customers of a scenario's OD demand, and how many arrivals were skipped.
    static func customers(_ scenario: Scenario, count: Int = 150) throws -> (trips: [DemandTrip], dropped: Int) {
        let city = try CityModel(scenario: scenario)
        let streams = RandomStreams(seed: 5)
        let demand = try #require(try RealDemand(scenario: scenario, city: city, streams: streams, horizon: 24 * 3600))
        var trips: [DemandTrip] = [], time = 0.0
        while trips.count < count, let trip = demand.next(after: time, arrivals: streams.arrivals, places: streams.places) {
            trips.append(trip)
            time = trip.time
        }
        return (trips, demand.droppedTimes.count)
    }

    @Test("origins and destinations lie in the named demand zones' polygons, the same ones under two dispatch zonings")
    func pointsFollowTheDemandZonesWhateverTheDispatchZones() throws {
        let coarse = try Self.scenario(), fine = try Self.scenario(["city.zone.side_km=0.5"])
        #expect(try coarse.city.geometry().zoneCount == 12 && fine.city.geometry().zoneCount == 48)
        let demandZones = try #require(coarse.demand.odMatrix?.zones)
        #expect(coarse.demand.odMatrix?.demandZone == [0, 1])
        let (a, droppedA) = try Self.customers(coarse), (b, droppedB) = try Self.customers(fine)
        #expect(a.count == 150 && droppedA == 0 && droppedB == 0)
        #expect(a == b)
        for trip in a {
            #expect(demandZones.zones.zoneIndex(at: trip.origin) == demandZones.zone(withID: "west"))
            #expect(demandZones.zones.zoneIndex(at: trip.destination) == demandZones.zone(withID: "east"))
        }
    }

    @Test("zone_ids map matrix zones to the file's IDs, not to its order")
    func zoneIDsNameTheZones() throws {
        let scenario = try Self.scenario(matrix: try Self.matrix(ids: ["east", "west"]))
        #expect(scenario.demand.odMatrix?.demandZone == [1, 0])
        let spec = try #require(scenario.demand.odMatrix?.zones)
        for trip in try Self.customers(scenario, count: 50).trips {
            #expect(spec.zones.zoneIndex(at: trip.origin) == spec.zone(withID: "east"))
        }
    }

    @Test("a drawn point outside every dispatch zone skips the request and is counted, as a replay's outside_city: drop")
    func pointsOutsideTheDispatchZonesAreDropped() throws {
        // Hexagons of edge 0.5 km leave the rectangle's ragged edges outside every dispatch zone.
        let scenario = try Self.scenario(["city.zone.shape=hexagon", "city.zone.side_km=0.5"])
        let geometry = try scenario.city.geometry()
        let (trips, dropped) = try Self.customers(scenario)
        #expect(trips.count == 150 && dropped > 10)
        #expect(trips.allSatisfy { geometry.contains($0.origin) && geometry.contains($0.destination) })
        // The run summary counts the window's skipped draws; demand on the dispatch zones has no such count.
        let summary = try CitySimulation(scenario: scenario, seed: 5).run().summary
        #expect((summary.requests.droppedOutsideZones ?? 0) > 10)
        let onDispatchZones = try ReplayFixture.load(Self.yaml("od_matrix: od.json"), files: ["od.json": try Self.matrix(ids: nil, zones: 12)])
        #expect(try CitySimulation(scenario: onDispatchZones, seed: 5).run().summary.requests.droppedOutsideZones == nil)
    }

    @Test("the same seed gives byte-identical rides.csv; another seed another")
    func sameSeedSameRides() throws {
        let scenario = try Self.scenario()
        let first = try CitySimulation(scenario: scenario, seed: 3).run()
        let second = try CitySimulation(scenario: scenario, seed: 3).run()
        let other = try CitySimulation(scenario: scenario, seed: 4).run()
        #expect(first.rides.count > 100)
        #expect(ResultWriter.ridesCSV(first) == ResultWriter.ridesCSV(second))
        #expect(ResultWriter.ridesCSV(first) != ResultWriter.ridesCSV(other))
    }

    @Test("the canonical form (with the demand zones' file) loads back to the same scenario")
    func canonicalFormLoadsBack() throws {
        let scenario = try Self.scenario()
        #expect(scenario.canonicalJSON.contains("\"zones\""))
        // The matrix's path is kept as written, relative to the scenario's folder.
        let folder = URL(fileURLWithPath: try #require(scenario.demand.odMatrix?.zones?.file)).deletingLastPathComponent()
        #expect(try Scenario.load(yaml: scenario.canonicalJSON, file: folder.appendingPathComponent("canonical.json").path) == scenario)
    }

    @Test("bad demand-zone settings fail naming the key and the reason", arguments: [
        (odKey, #"["west", "north"]"#, "demand.od_matrix.zones", "'north', which is not a zone ID of"),
        (odKey, "nil3", "demand.od_matrix.zones", "has 3 zones and no zone_ids"),
        ("od_matrix: { file: od.json, zones: { geojson: missing.geojson, id_property: code } }", "", "demand.od_matrix.zones.geojson", "missing.geojson"),
        ("od_matrix: { file: od.json, zones: { geojson: zones.geojson, id_property: code, shape: hexagon } }", "", "demand.od_matrix.zones.shape", "unknown key 'shape'"),
        ("od_matrix: od.json", "", "demand.od_matrix", "name their GeoJSON file in od_matrix.zones"),
    ])
    func badSettingsAreNamed(od: String, ids: String, keyPath: String, reason: String) throws {
        let matrix: String
        switch ids {
        case "": matrix = try Self.matrix()
        case "nil3": matrix = try Self.matrix(ids: nil, zones: 3)
        default: matrix = try Self.matrix(ids: try JSONDecoder().decode([String].self, from: Data(ids.utf8)))
        }
        let error = try #require(ReplayFixture.error(Self.yaml(od), files: ["od.json": matrix, "zones.geojson": Self.geojson]))
        #expect(error.keyPath == keyPath, "\(error)")
        #expect(error.description.contains(reason), "\(error)")
        #expect(error.description.contains("scenario.yaml"), "\(error)")
    }

    @Test("fit-demand --zones maps zone-ID trips onto the demand zones, not the city's, and records their IDs")
    func fitOnDemandZonesRecordsTheirIDs() throws {
        // IDs 1 and 2 are also zones of the 12-zone city: the fit must map them to the demand zones "1" (east) and "2" (west).
        let numbered = #"{"type": "FeatureCollection", "features": [\#(Self.feature("2", -1, 2)), \#(Self.feature("1", 2, 5))]}"#
        let csv = "t,PU,DO\n" + (0..<30).map { "\(Double($0) * 600),\($0 % 3 == 0 ? 1 : 2),1" }.joined(separator: "\n") + "\n"
        let scenario = try ReplayFixture.load(
            ReplayFixture.yaml(demand: ReplayFixture.zoneDemand(), city: "projection: { south_west: [60.0, 25.0] }"),
            files: ["trips.csv": csv, "zones.geojson": numbered])
        let folder = URL(fileURLWithPath: scenario.demand.trips!.trace.file).deletingLastPathComponent()
        let zones = try Scenario.ZonePolygonsSpec.load(path: folder.appendingPathComponent("zones.geojson").path, idProperty: "code",
                                                       nameProperty: nil, projection: try #require(scenario.city.geographic),
                                                       widthKm: 4, heightKm: 3)
        let model = try ODMatrix.fit(path: scenario.demand.trips!.trace.file, scenario: scenario, minHourTrips: 1, zones: zones)
        #expect(model.zones == 2 && model.zoneIDs == ["2", "1"])
        // Zone 0 is "2" (west), zone 1 is "1" (east): 20 trips west → east, 10 east → east.
        #expect(model.allDay == [ODMatrix.Pair(origin: 0, destination: 1, trips: 20), ODMatrix.Pair(origin: 1, destination: 1, trips: 10)])
    }
}
