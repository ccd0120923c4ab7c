import DispatchCore
import Foundation

/// Zones read from a GeoJSON `FeatureCollection` (RFC 7946): one zone per distinct ID, its polygons the
/// `Polygon` and `MultiPolygon` geometries of the features with that ID — published taxi zones, such as NYC
/// TLC's, have this form (TLC's zones 56 and 103 come as several features, which become one zone each).
///
/// Invariant: at least one zone; IDs are distinct and non-empty; zones are in the order their ID first
/// appears in the file; every ring has at least 3 distinct points, each a valid longitude and latitude.
///
/// ```swift
/// let zones = try GeoJSONZones(contentsOf: "Scenarios/zones/helsinki-districts.geojson", idProperty: "id")
/// let polygons = try zones.polygonZones(in: LocalProjection(southWest: zones.southWest, northEast: zones.northEast))
/// ```
public struct GeoJSONZones: Sendable {
    /// One zone: its ID, an optional name, and its polygons (each an outer ring, then holes) in lat/lon.
    public struct Zone: Sendable, Equatable {
        public let id: String
        public let name: String?
        public let polygons: [[[LatLon]]]
    }

    public let file: String
    public let zones: [Zone]

    /// Reads `path`. The zone ID is the feature's `idProperty` property when given, else its `id` member;
    /// the name is the `nameProperty` property, if any.
    /// - Throws: `RoadNetworkError.malformedFile` naming the file, the JSON path and the reason.
    public init(contentsOf path: String, idProperty: String? = nil, nameProperty: String? = nil) throws(RoadNetworkError) {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .malformedFile(file: path, reason: "cannot read the file (\(error.localizedDescription))")
        }
        try self.init(data: data, file: path, idProperty: idProperty, nameProperty: nameProperty)
    }

    /// Reads GeoJSON `data`; `file` names it in errors.
    public init(data: Data, file: String, idProperty: String? = nil, nameProperty: String? = nil) throws(RoadNetworkError) {
        self.file = file
        func fail(_ path: String, _ reason: String) -> RoadNetworkError { .malformedFile(file: file, reason: "\(path): \(reason)") }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw .malformedFile(file: file, reason: "not JSON (\(error.localizedDescription))")
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection",
              let features = collection["features"] as? [Any] else {
            throw fail("$", "expected a GeoJSON FeatureCollection with a \"features\" array")
        }
        var order: [String] = [], names: [String: String] = [:], polygons: [String: [[[LatLon]]]] = [:]
        for (i, element) in features.enumerated() {
            let path = "features[\(i)]"
            guard let feature = element as? [String: Any], feature["type"] as? String == "Feature" else {
                throw fail(path, "expected an object of type \"Feature\"")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let rawID = idProperty.map { properties[$0] } ?? feature["id"]
            guard let id = rawID.flatMap(Self.text), !id.isEmpty else {
                throw fail(path, idProperty.map { "no zone ID: property \"\($0)\" is missing or empty" }
                           ?? "no zone ID: the feature has no \"id\" (name an ID property, e.g. LocationID)")
            }
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String else {
                throw fail("\(path).geometry", "missing (zone \(id))")
            }
            let coordinates = geometry["coordinates"]
            let parts: [Any]
            switch type {
            case "Polygon": parts = [coordinates as Any]
            case "MultiPolygon":
                guard let list = coordinates as? [Any] else { throw fail("\(path).geometry.coordinates", "expected an array of polygons") }
                parts = list
            default: throw fail("\(path).geometry", "zone \(id) is a \(type); zones need a Polygon or a MultiPolygon")
            }
            if polygons[id] == nil { order.append(id) }
            for (p, part) in parts.enumerated() {
                let partPath = type == "Polygon" ? "\(path).geometry.coordinates" : "\(path).geometry.coordinates[\(p)]"
                polygons[id, default: []].append(try Self.polygon(part, path: partPath, fail))
            }
            if let nameProperty, let name = properties[nameProperty].flatMap(Self.text) { names[id] = names[id] ?? name }
        }
        guard !order.isEmpty else { throw fail("features", "no zone: the collection is empty") }
        zones = order.map { Zone(id: $0, name: names[$0], polygons: polygons[$0]!) }
    }

    /// The south-west corner of the zones' bounding box.
    public var southWest: LatLon {
        let points = zones.lazy.flatMap(\.polygons).flatMap { $0[0] }
        return LatLon(latitude: points.map(\.latitude).min()!, longitude: points.map(\.longitude).min()!)
    }

    /// The north-east corner of the zones' bounding box.
    public var northEast: LatLon {
        let points = zones.lazy.flatMap(\.polygons).flatMap { $0[0] }
        return LatLon(latitude: points.map(\.latitude).max()!, longitude: points.map(\.longitude).max()!)
    }

    /// The zones in metres through `projection`, clipped to the rectangle `[0, width] × [0, height]` (a road
    /// network's area: zones that reach beyond an extract lose the part no taxi can drive to), then moved by
    /// `shift`, indexed for point-in-zone queries.
    /// - Throws: `RoadNetworkError.invalidConfiguration` naming the zone when it lies wholly outside the
    ///   rectangle or wholly under earlier zones.
    public func polygonZones(in projection: LocalProjection, width: Double = .infinity, height: Double = .infinity,
                             shift: Position = Position(x: 0, y: 0)) throws(RoadNetworkError) -> PolygonZones {
        var result: [[ZonePolygon]] = []
        for zone in zones {
            var parts: [ZonePolygon] = []
            for rings in zone.polygons {
                let clipped = rings.map {
                    Self.clip($0.map(projection.project), width: width, height: height).map { Position(x: $0.x + shift.x, y: $0.y + shift.y) }
                }
                guard Set(clipped[0]).count >= 3 else { continue }   // the outer ring is outside: drop the polygon
                if let polygon = try? ZonePolygon(rings: clipped.filter { Set($0).count >= 3 }) { parts.append(polygon) }
            }
            guard !parts.isEmpty else {
                throw .invalidConfiguration(field: file, reason: "zone \(zone.id) lies outside the city's area (\(Int(width)) × \(Int(height)) m from \(projection.southWest))")
            }
            result.append(parts)
        }
        do { return try PolygonZones(zones: result) } catch {
            throw .invalidConfiguration(field: file, reason: "\(error)")
        }
    }

    /// `ring` clipped to `[0, width] × [0, height]` (Sutherland–Hodgman, one half-plane at a time).
    static func clip(_ ring: [Position], width: Double, height: Double) -> [Position] {
        var points = ring
        let planes: [(inside: (Position) -> Bool, cross: (Position, Position) -> Position)] = [
            ({ $0.x >= 0 }, { a, b in Position(x: 0, y: a.y + (b.y - a.y) * (0 - a.x) / (b.x - a.x)) }),
            ({ $0.x <= width }, { a, b in Position(x: width, y: a.y + (b.y - a.y) * (width - a.x) / (b.x - a.x)) }),
            ({ $0.y >= 0 }, { a, b in Position(x: a.x + (b.x - a.x) * (0 - a.y) / (b.y - a.y), y: 0) }),
            ({ $0.y <= height }, { a, b in Position(x: a.x + (b.x - a.x) * (height - a.y) / (b.y - a.y), y: height) }),
        ]
        for plane in planes where !points.isEmpty {
            var kept: [Position] = []
            for (i, current) in points.enumerated() {
                let previous = points[(i + points.count - 1) % points.count]
                switch (plane.inside(previous), plane.inside(current)) {
                case (true, true): kept.append(current)
                case (true, false): kept.append(plane.cross(previous, current))
                case (false, true): kept.append(plane.cross(previous, current)); kept.append(current)
                case (false, false): break
                }
            }
            points = kept
        }
        return points
    }

    private static func text(_ value: Any) -> String? {
        switch value {
        case let s as String: return s
        case let n as NSNumber: return n.stringValue
        default: return nil
        }
    }

    /// A polygon's rings from GeoJSON `[[[lon, lat], …], …]`.
    private static func polygon(_ value: Any, path: String, _ fail: (String, String) -> RoadNetworkError) throws(RoadNetworkError) -> [[LatLon]] {
        guard let rings = value as? [Any], !rings.isEmpty else { throw fail(path, "expected a non-empty array of rings") }
        var result: [[LatLon]] = []
        for (r, ringValue) in rings.enumerated() {
            guard let ring = ringValue as? [Any] else { throw fail("\(path)[\(r)]", "expected an array of positions") }
            var points: [LatLon] = []
            for (k, positionValue) in ring.enumerated() {
                guard let position = positionValue as? [Any], position.count >= 2,
                      let lon = (position[0] as? NSNumber)?.doubleValue, let lat = (position[1] as? NSNumber)?.doubleValue else {
                    throw fail("\(path)[\(r)][\(k)]", "expected a position [longitude, latitude]")
                }
                guard (-180...180).contains(lon), (-90...90).contains(lat) else {
                    throw fail("\(path)[\(r)][\(k)]", "[\(lon), \(lat)] is not a longitude and a latitude (GeoJSON puts longitude first)")
                }
                points.append(LatLon(latitude: lat, longitude: lon))
            }
            guard Set(points).count >= 3 else { throw fail("\(path)[\(r)]", "a ring needs at least 3 distinct positions") }
            result.append(points)
        }
        return result
    }
}
