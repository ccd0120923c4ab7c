import DispatchCore
import Foundation
import Testing
@testable import RoadNetwork

/// GeoJSON zones (issue 13: polygons from a GeoJSON file, such as the NYC TLC taxi zones): features become
/// zones by ID, MultiPolygons and repeated IDs merge, and bad files fail naming the file, path and reason.
@Suite struct GeoJSONZoneTests {
    static func collection(_ features: String) -> Data { Data("{\"type\": \"FeatureCollection\", \"features\": [\(features)]}".utf8) }

    static func square(_ lon: Double, _ lat: Double, _ size: Double) -> String {
        "[[[\(lon), \(lat)], [\(lon + size), \(lat)], [\(lon + size), \(lat + size)], [\(lon), \(lat + size)], [\(lon), \(lat)]]]"
    }

    static func feature(_ id: Int, _ type: String, _ coordinates: String, name: String = "z") -> String {
        "{\"type\": \"Feature\", \"properties\": {\"LocationID\": \(id), \"zone\": \"\(name)\"}, \"geometry\": {\"type\": \"\(type)\", \"coordinates\": \(coordinates)}}"
    }

    @Test func featuresBecomeZonesByIDAndRepeatedIDsMergeIntoOneZone() throws {
        let data = Self.collection([
            Self.feature(7, "Polygon", Self.square(24.90, 60.16, 0.01), name: "Kamppi"),
            Self.feature(3, "MultiPolygon", "[\(Self.square(24.92, 60.16, 0.01)), \(Self.square(24.94, 60.16, 0.01))]"),
            Self.feature(7, "Polygon", Self.square(24.90, 60.18, 0.01)),
        ].joined(separator: ","))
        let zones = try GeoJSONZones(data: data, file: "zones.geojson", idProperty: "LocationID", nameProperty: "zone")
        #expect(zones.zones.map(\.id) == ["7", "3"])
        #expect(zones.zones[0].name == "Kamppi" && zones.zones[0].polygons.count == 2 && zones.zones[1].polygons.count == 2)
        #expect(zones.southWest == LatLon(latitude: 60.16, longitude: 24.90))
        let projection = LocalProjection(southWest: zones.southWest, northEast: zones.northEast)
        let polygons = try zones.polygonZones(in: projection)
        #expect(polygons.zoneIndex(at: projection.project(LatLon(latitude: 60.185, longitude: 24.905))) == 0)
        #expect(polygons.zoneIndex(at: projection.project(LatLon(latitude: 60.165, longitude: 24.945))) == 1)
        #expect(polygons.zoneIndex(at: projection.project(LatLon(latitude: 60.165, longitude: 24.915))) == nil)
        // 0.01° of latitude is 1,112 m; of longitude at 60.17° about 553 m.
        #expect(abs(polygons.areas[0] / 2 - 1_111.95 * 553.4) / (1_111.95 * 553.4) < 0.005)
    }

    @Test func badFilesFailNamingTheFileThePathAndTheReason() {
        func message(_ json: String, id: String? = "LocationID") -> String {
            do {
                _ = try GeoJSONZones(data: Data(json.utf8), file: "zones.geojson", idProperty: id)
                return "no error"
            } catch { return error.description }
        }
        #expect(message("{") .hasPrefix("zones.geojson: malformed: not JSON"))
        #expect(message("{\"type\": \"Feature\"}").contains("$: expected a GeoJSON FeatureCollection"))
        #expect(message(String(decoding: Self.collection(""), as: UTF8.self)).contains("no zone"))
        let point = "{\"type\": \"Feature\", \"properties\": {\"LocationID\": 1}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [1, 2]}}"
        #expect(message(String(decoding: Self.collection(point), as: UTF8.self)).contains("features[0].geometry: zone 1 is a Point"))
        let swapped = Self.feature(1, "Polygon", "[[[60.1, 124.9], [60.2, 124.9], [60.2, 125.0]]]")
        #expect(message(String(decoding: Self.collection(swapped), as: UTF8.self))
            .contains("features[0].geometry.coordinates[0][0]: [60.1, 124.9] is not a longitude and a latitude"))
        let thin = Self.feature(1, "Polygon", "[[[24.9, 60.1], [24.9, 60.1], [25.0, 60.1]]]")
        #expect(message(String(decoding: Self.collection(thin), as: UTF8.self)).contains("coordinates[0]: a ring needs at least 3 distinct"))
        #expect(message(String(decoding: Self.collection(Self.feature(1, "Polygon", Self.square(24.9, 60.1, 0.1))), as: UTF8.self), id: "borough")
            .contains("features[0]: no zone ID: property \"borough\""))
        do {
            _ = try GeoJSONZones(contentsOf: "/nonexistent/zones.geojson")
            Issue.record("read a missing file")
        } catch { #expect(error.description.hasPrefix("/nonexistent/zones.geojson: malformed: cannot read the file")) }
    }
}

extension GeoJSONZoneTests {
    @Test func zonesReachingBeyondTheCityAreClippedToItAndAZoneWhollyOutsideIsAnError() throws {
        let data = Self.collection([
            Self.feature(1, "Polygon", Self.square(24.89, 60.15, 0.03)),   // overlaps the city's south-west corner
            Self.feature(2, "Polygon", Self.square(24.95, 60.17, 0.01)),   // inside
        ].joined(separator: ","))
        let zones = try GeoJSONZones(data: data, file: "zones.geojson", idProperty: "LocationID")
        let projection = LocalProjection(southWest: LatLon(latitude: 60.16, longitude: 24.90),
                                         northEast: LatLon(latitude: 60.19, longitude: 24.97))
        let city = projection.project(LatLon(latitude: 60.19, longitude: 24.97))
        let polygons = try zones.polygonZones(in: projection, width: city.x, height: city.y)
        // Zone 1 keeps 0.02° × 0.02° of its 0.03° square: the part north-east of the city's corner.
        let kept = projection.project(LatLon(latitude: 60.18, longitude: 24.92))
        #expect(abs(polygons.areas[0] - kept.x * kept.y) / (kept.x * kept.y) < 1e-9)
        #expect(polygons.bounds.minX >= 0 && polygons.bounds.minY >= 0)
        #expect(polygons.zoneIndex(at: Position(x: 10, y: 10)) == 0)
        let outside = Self.collection(Self.feature(9, "Polygon", Self.square(25.5, 60.5, 0.01)))
        #expect(throws: RoadNetworkError.self) {
            try GeoJSONZones(data: outside, file: "zones.geojson", idProperty: "LocationID").polygonZones(in: projection, width: city.x, height: city.y)
        }
    }
}
