import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `city.fit: equal-area`: square and hexagonal zones of one area serve the same area at the same density,
/// so the zone-size sweep compares shapes like for like.
@Suite("City fitted to whole zones of every shape")
struct CityFitTests {
    static let zoneSize = scenariosDirectory.appendingPathComponent("experiments/zone-size.yaml").path

    @Test("every (area, shape) point of the zone-size sweep serves the squares' area, within 2 % of 100 km², at the stated density")
    func zoneSizePointsServeTheSameAreaAtTheSameDensity() throws {
        let experiment = try Experiment.load(path: Self.zoneSize)
        var served: [String: [String: Double]] = [:]  // zone area → shape → km² served
        for point in experiment.points {
            let scenario = try experiment.scenario(for: point)
            let layout = try scenario.city.geometry().layout
            let km2 = layout.servedArea / 1e6
            served[point.values[0], default: [:]][point.values[1]] = km2
            #expect(abs(km2 / 100 - 1) <= 0.02, "\(point.values): \(km2) km²")
            // Requests per km² served: the stated 500 per 100 km², exactly.
            #expect(abs(scenario.demand.rate(atHour: 9) / km2 - 5) < 1e-9, "\(point.values)")
            // Taxis per km² served: the stated 200 × fleet.scale per shift per 100 km², up to rounding to whole taxis.
            for shift in scenario.fleet.shifts {
                let exact = Double(shift.taxis) * scenario.fleet.scale * km2 / 100
                #expect(abs(Double(scenario.fleet.taxis(in: shift)) - exact) <= 0.5, "\(point.values)")
            }
        }
        #expect(served.count == 6)
        for (area, shapes) in served {
            let square = try #require(shapes["square"]), hexagon = try #require(shapes["hexagon"])
            #expect(abs(square - hexagon) < 1e-9, "\(area) km²: \(shapes)")
        }
    }

    @Test("hexagons fitted to the area lay the squares' rows and columns, centred on the rectangle, with the hotspot in place")
    func hexagonsTakeTheSquaresRowsAndColumns() throws {
        let path = scenariosDirectory.appendingPathComponent("seeds-reference.yaml").path
        let squares = try Scenario.load(path: path, overrides: ["city.fit=equal-area", "city.zone.area_km2=6.25"])
        let hexes = try Scenario.load(path: path, overrides: ["city.fit=equal-area", "city.zone.area_km2=6.25",
                                                              "city.zone.shape=hexagon"])
        let square = try squares.city.geometry().layout, hexagon = try hexes.city.geometry().layout
        #expect(square.rows == 4 && square.columns == 4)
        #expect(hexagon.rows == 4 && hexagon.columns == 4 && hexagon.oddRowColumns == 4 && hexagon.zoneCount == 16)
        for layout in [square, hexagon] {
            // The zones' bounding box is centred where the 10 × 10 km rectangle's centre was: the station,
            // stated at (5, 4.5) km, lies 0.5 km south of the box's centre.
            let b = layout.bounds
            let station = (layout == square ? squares : hexes).city.centre(of: squares.city.hotspots[0])
            #expect(abs(station.x - (b.minX + b.maxX) / 2) < 1e-6 && abs(station.y - (b.minY + b.maxY) / 2 + 500) < 1e-6)
            #expect(layout.zoneIndex(at: station) != nil)
        }
        // Under the default (clip) the hexagons are 9 whole ones in the rectangle, and demand is as stated.
        let clipped = try Scenario.load(path: path, overrides: ["city.zone.area_km2=6.25", "city.zone.shape=hexagon"])
        #expect(try clipped.city.geometry().zoneCount == 9 && clipped.demand.rate(atHour: 9) == 500)
        #expect(clipped.fleet.taxis(in: clipped.fleet.shifts[0]) == 200)
    }

    @Test("a fitted city keeps its canonical form: the fit is a key, the density scale is derived again on loading")
    func theFitSurvivesTheCanonicalForm() throws {
        let path = scenariosDirectory.appendingPathComponent("seeds-reference.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["city.fit=equal-area", "city.zone.area_km2=2"])
        #expect(scenario.canonicalJSON.contains("\"fit\":\"equal-area\""))
        let again = try Scenario.load(yaml: scenario.canonicalJSON, file: "canonical.json")
        #expect(again == scenario && abs(again.demand.rate(atHour: 0) - 490) < 1e-9)
    }

    @Test("a run in a fitted hexagonal city draws every place inside its zones")
    func aFittedRunStaysInsideTheZones() throws {
        let path = scenariosDirectory.appendingPathComponent("seeds-reference.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["city.fit=equal-area", "city.zone.area_km2=4",
                                                                 "city.zone.shape=hexagon", "duration_hours=2"])
        let result = try CitySimulation(scenario: scenario).run()
        let city = try scenario.city.geometry()
        #expect(result.rides.count > 800)
        #expect(result.rides.allSatisfy {
            city.contains(Position(x: $0.originX, y: $0.originY)) && city.contains(Position(x: $0.destinationX, y: $0.destinationY))
        })
    }
}
