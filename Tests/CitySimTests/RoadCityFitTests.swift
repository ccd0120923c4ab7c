import DispatchCore
import Foundation
import RoadNetwork
import Testing
@testable import CitySim

/// A road city under `city.fit: equal-area` or `cover` runs in the zones' plane, where the network's box sits at
/// `rectangleOrigin`: its roads, its lat/lon projection and its demand zones are moved there with the zones and
/// hotspots, and `cover` lays the fewest whole zones that hold the whole box.
@Suite("Road cities fitted to whole zones")
struct RoadCityFitTests {
    static func helsinki(_ overrides: [String]) throws -> Scenario {
        try SimulationRunTests.scenario("helsinki.yaml", overrides)
    }

    static let fittings: [[String]] = [
        ["city.fit=equal-area", "city.zone.shape=square", "city.zone.area_km2=0.08"],
        ["city.fit=equal-area", "city.zone.shape=hexagon", "city.zone.area_km2=0.16"],
        ["city.fit=cover", "city.zone.shape=hexagon", "city.zone.area_km2=0.08"],
        ["city.fit=cover", "city.zone.shape=square", "city.zone.area_km2=0.25"],
    ]

    @Test("the roads lie where the fit puts the network's box: centred on the zones' block, each node at its own latitude/longitude",
          arguments: fittings)
    func theRoadsMoveWithTheZones(_ fitting: [String]) throws {
        let scenario = try Self.helsinki(fitting)
        let offset = scenario.city.rectangleOrigin
        #expect(offset.x != 0 && offset.y != 0, "\(fitting): the fit moves the box")
        let original = try RoadNetworkLibrary.graph(path: try #require(scenario.city.roadNetwork).osm)
        let graph = try #require(try CityModel(scenario: scenario).roads).graph
        // The city's box, [0, width] × [0, height] in the network's own projection, is centred on the block, and
        // every node sits where the box's origin moved.
        let block = try scenario.city.geometry().layout.bounds
        let boxCentre = Position(x: offset.x + scenario.city.widthKm * 500, y: offset.y + scenario.city.heightKm * 500)
        #expect(abs(boxCentre.x - (block.minX + block.maxX) / 2) < 1e-6 && abs(boxCentre.y - (block.minY + block.maxY) / 2) < 1e-6,
                "\(fitting): box centred at \(boxCentre), block \(block)")
        #expect(graph.positions.indices.allSatisfy {
            abs(graph.positions[$0].x - original.positions[$0].x - offset.x) < 1e-9
                && abs(graph.positions[$0].y - original.positions[$0].y - offset.y) < 1e-9
        })
        // A node's place in degrees is the same through the moved projection (rides.csv's lat/lon columns).
        for node in stride(from: 0, to: graph.nodeCount, by: 97) {
            let moved = graph.projection.unproject(graph.positions[node])
            let truth = original.projection.unproject(original.positions[node])
            #expect(abs(moved.latitude - truth.latitude) < 1e-9 && abs(moved.longitude - truth.longitude) < 1e-9)
        }
        // A hotspot stated in lat/lon lies on the same road as in the unfitted city.
        let plain = try Self.helsinki(["city.fit=clip"])
        let station = scenario.city.centre(of: scenario.city.hotspots[0]), stationPlain = plain.city.centre(of: plain.city.hotspots[0])
        let router = RoadRouter(graph: graph), plainRouter = RoadRouter(graph: original)
        #expect(router.snap(station).edge == plainRouter.snap(stationPlain).edge)
    }

    @Test("the OD matrix's demand zones move with the box: each district's bounds are the unfitted ones plus the offset",
          arguments: fittings)
    func theDemandZonesMoveWithTheBox(_ fitting: [String]) throws {
        let fitted = try Self.helsinki(fitting), plain = try Self.helsinki(["city.fit=clip"])
        let offset = fitted.city.rectangleOrigin
        let moved = try #require(fitted.demand.odMatrix?.zones), unmoved = try #require(plain.demand.odMatrix?.zones)
        for zone in 0..<moved.zones.zones.count {
            let a = moved.zones.bounds(of: zone), b = unmoved.zones.bounds(of: zone)
            #expect(abs(a.minX - b.minX - offset.x) < 1e-6 && abs(a.maxY - b.maxY - offset.y) < 1e-6, "\(fitting) district \(zone)")
        }
    }

    @Test("cover lays the fewest whole zones that hold every point of the city's box, at the stated demand and fleet",
          arguments: ["square", "hexagon"], [0.04, 0.08, 0.16, 0.25, 0.6])
    func coverHoldsTheWholeBox(_ shape: String, _ area: Double) throws {
        let scenario = try Self.helsinki(["city.fit=cover", "city.zone.shape=\(shape)", "city.zone.area_km2=\(area)"])
        let city = scenario.city, layout = try city.geometry().layout, offset = city.rectangleOrigin
        let width = city.widthKm * 1000, height = city.heightKm * 1000
        for i in 0...40 {
            for j in 0...40 {
                let p = Position(x: offset.x + width * Double(i) / 40, y: offset.y + height * Double(j) / 40)
                #expect(layout.zoneIndex(at: p) != nil, "\(shape) \(area) km²: (\(p.x), \(p.y)) outside every zone")
            }
        }
        // The fewest: one column or one row less would not reach across the box.
        let side = city.zone.sideKm * 1000
        if shape == "square" {
            #expect(Double(layout.columns - 1) * side < width && Double(layout.rows - 1) * side < height)
        } else {
            let w = side * 3.0.squareRoot()
            #expect(Double(layout.columns - 1 - (layout.rows > 1 ? 1 : 0)) * w + w / 2 < width || layout.columns == 1)
            #expect(side + 1.5 * side * Double(layout.rows - 2) < height || layout.rows == 1)
        }
        #expect(city.densityScale == 1 && scenario.fleet.taxis(in: scenario.fleet.shifts[0]) == scenario.fleet.shifts[0].taxis)
    }

    @Test("under cover every draw of the district OD matrix is requested, the same requests at every zone shape and size")
    func coverKeepsEveryDistrictTrip() throws {
        var generated: [Int] = []
        for zoning in [["city.zone.shape=hexagon", "city.zone.area_km2=0.08"], ["city.zone.shape=square", "city.zone.area_km2=0.25"]] {
            let scenario = try Self.helsinki(["city.fit=cover", "duration_hours=10", "demand.scale=1"] + zoning)
            let result = try CitySimulation(scenario: scenario).run()
            #expect(result.summary.requests.droppedOutsideZones == 0, "\(zoning)")
            generated.append(result.summary.requests.generated)
        }
        #expect(generated[0] > 300 && generated[0] == generated[1], "\(generated)")
    }
}
