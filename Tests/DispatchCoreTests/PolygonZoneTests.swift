import Foundation
import Testing
import TestSupport
@testable import DispatchCore

/// Polygon zones (issue 13: real taxi zones from GeoJSON): the grid index answers as testing every zone in
/// order would, holes and overlaps follow the stated rules, and the zone queues work unchanged on them.
@Suite struct PolygonZoneTests {
    static func polygon(_ rings: [[(Double, Double)]]) throws -> ZonePolygon {
        try ZonePolygon(rings: rings.map { $0.map { Position(x: $0.0, y: $0.1) } })
    }

    static func square(_ x: Double, _ y: Double, _ side: Double) throws -> ZonePolygon {
        try polygon([[(x, y), (x + side, y), (x + side, y + side), (x, y + side)]])
    }

    /// A random star-shaped ring of `corners` corners around `centre`, radii in [0.3, 1] × `radius`.
    static func star(_ centre: Position, radius: Double, corners: Int, _ random: inout SplitMix64) -> [Position] {
        (0..<corners).map { k in
            let angle = 2 * Double.pi * (Double(k) + 0.8 * random.nextUnit()) / Double(corners)
            let r = radius * (0.3 + 0.7 * random.nextUnit())
            return Position(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
        }
    }

    /// The rule the index must reproduce: the lowest zone whose edges (all its rings, `zoneEdges[z]`) a ray
    /// from `p` crosses an odd number of times.
    static func bruteForce(_ zoneEdges: [[(a: Position, b: Position)]], _ p: Position) -> Int? {
        zoneEdges.indices.first { z in
            zoneEdges[z].reduce(false) { inside, e in ZonePolygon.crossesRay(from: p, e.a, e.b) ? !inside : inside }
        }
    }

    @Test func theIndexAnswersAsTestingEveryZoneInOrderOnOverlappingStarsWithHoles() throws {
        var random = SplitMix64(seed: 13)
        var zones: [[ZonePolygon]] = []
        for _ in 0..<40 {
            let centre = Position(x: 1_000 + random.nextUnit() * 8_000, y: 1_000 + random.nextUnit() * 6_000)
            let radius = 300 + random.nextUnit() * 650
            var rings = [Self.star(centre, radius: radius, corners: 5 + Int(random.nextUnit() * 40), &random)]
            if random.nextUnit() < 0.3 {   // a hole well inside the star's smallest radius
                rings.append(Self.star(centre, radius: radius * 0.25, corners: 6, &random))
            }
            zones.append([try ZonePolygon(rings: rings)])
        }
        let index = try PolygonZones(zones: zones)
        let zoneEdges = zones.map { $0.flatMap(\.edges) }  // built once: `edges` makes a new array each time
        var inside = 0, outside = 0
        for _ in 0..<40_000 {
            let p = Position(x: random.nextUnit() * 10_500, y: random.nextUnit() * 8_500)
            let expected = Self.bruteForce(zoneEdges, p)
            #expect(index.zoneIndex(at: p) == expected, "\(p)")
            if expected == nil { outside += 1 } else { inside += 1 }
        }
        #expect(inside > 5_000 && outside > 5_000)
        // Corners and edge midpoints, where half-open crossings decide.
        for ring in zones.flatMap({ $0[0].rings }) {
            for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) {
                for p in [a, Position(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)] {
                    #expect(index.zoneIndex(at: p) == Self.bruteForce(zoneEdges, p), "\(p)")
                }
            }
        }
    }

    @Test func aTilingPutsEveryPointOfTheServedAreaInExactlyItsTile() throws {
        // 4 × 3 squares of 1 km: interior points in their square, points on shared edges in one of the two.
        let tiles = try (0..<3).flatMap { row in try (0..<4).map { column in [try Self.square(Double(column) * 1_000, Double(row) * 1_000, 1_000)] } }
        let index = try PolygonZones(zones: tiles)
        var random = SplitMix64(seed: 5)
        for _ in 0..<5_000 {
            let p = Position(x: random.nextUnit() * 4_000, y: random.nextUnit() * 3_000)
            #expect(index.zoneIndex(at: p) == Int(p.y / 1_000) * 4 + Int(p.x / 1_000))
        }
        for k in 1..<4 {   // the vertical shared edges: every point is in the tile on one side
            for y in stride(from: 10.0, to: 3_000, by: 97) {
                let zone = try #require(index.zoneIndex(at: Position(x: Double(k) * 1_000, y: y)))
                #expect(zone % 4 == k || zone % 4 == k - 1)
            }
        }
        #expect(index.zoneIndex(at: Position(x: 4_000.5, y: 10)) == nil)
        #expect(abs(index.areas.reduce(0, +) - 12e6) < 1e-6)
    }

    @Test func aHoleIsOutsideAndAnOverlapGoesToTheLowerZone() throws {
        let ring = try Self.polygon([[(0, 0), (3_000, 0), (3_000, 3_000), (0, 3_000)], [(1_000, 1_000), (2_000, 1_000), (2_000, 2_000), (1_000, 2_000)]])
        let zones = [[ring], [try Self.square(2_500, 0, 1_000)]]
        let index = try PolygonZones(zones: zones)
        #expect(index.zoneIndex(at: Position(x: 1_500, y: 1_500)) == nil)   // in the hole
        #expect(index.zoneIndex(at: Position(x: 500, y: 1_500)) == 0)
        #expect(index.zoneIndex(at: Position(x: 2_700, y: 500)) == 0)       // both: the lower zone
        #expect(index.zoneIndex(at: Position(x: 3_200, y: 500)) == 1)
        #expect(abs(index.areas[0] - 8e6) < 1e-6)
    }

    @Test func everyZoneKeepsAPointOfItsOwnAndAZoneWhollyUnderLowerOnesIsRefused() throws {
        // A U shape: its centroid lies in the notch, outside the zone.
        let u = try Self.polygon([[(0, 0), (3_000, 0), (3_000, 3_000), (2_000, 3_000), (2_000, 1_000), (1_000, 1_000), (1_000, 3_000), (0, 3_000)]])
        let index = try PolygonZones(zones: [[u], [try Self.square(1_100, 1_100, 500)]])
        for z in 0..<2 { #expect(index.zoneIndex(at: index.centre(of: z)) == z) }
        #expect(throws: DispatchError.self) { try PolygonZones(zones: [[Self.square(0, 0, 2_000)], [Self.square(500, 500, 500)]]) }
        #expect(throws: DispatchError.self) { try Self.polygon([[(0, 0), (1, 1), (0, 0)]]) }
        // West of the plane's origin is a place like any other (a fitted city's demand zones reach there).
        let west = try PolygonZones(zones: [[Self.square(-10, 0, 100)]])
        #expect(west.zoneIndex(at: Position(x: -5, y: 50)) == 0 && west.zoneIndex(at: Position(x: -11, y: 50)) == nil)
    }

    @Test func zoneQueuesWorkUnchangedOnPolygonZones() throws {
        // Two triangles that split a 4 × 4 km square along its diagonal.
        let south = try Self.polygon([[(0, 0), (4_000, 0), (4_000, 4_000)]])
        let north = try Self.polygon([[(0, 0), (4_000, 4_000), (0, 4_000)]])
        let layout = try ZoneLayout(polygons: PolygonZones(zones: [[south], [north]]))
        #expect(layout.zoneCount == 2 && abs(layout.servedArea - 16e6) < 1e-6)
        let f = try Fixture(city: CityGeometry(layout: layout))
        try f.addDrivers(at: [point(3_000, 500), point(500, 3_000), point(3_500, 1_000)])
        #expect(f.queue(0) == [DriverID(1), DriverID(3)])
        #expect(f.queue(1) == [DriverID(2)])
        // A request in the south-east triangle goes to the head of its queue, though driver 2 is not farther.
        let effects = try f.request(1, from: point(2_000, 1_900), to: point(500, 3_500))
        #expect(effects.contains { if case .offer(DriverID(1), RequestID(1), _) = $0 { true } else { false } })
    }
}
