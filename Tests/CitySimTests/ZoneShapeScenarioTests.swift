import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `city.zone.shape` and whole zones in scenarios, runs and the report (issue 12 item 9).
@Suite struct ZoneShapeScenarioTests {
    static let hexagonYAML = minimalScenarioYAML.replacingOccurrences(
        of: "zone: { side_km: 1 }", with: "zone: { shape: hexagon, area_km2: 0.5 }")

    @Test func aHexagonZoneGivenByAreaHasThatAreaAndTheDefaultShapeIsSquare() throws {
        let hexes = try loadScenario(Self.hexagonYAML)
        #expect(hexes.city.zone.shape == .hexagon)
        #expect(abs(hexes.city.zone.areaKm2 - 0.5) < 1e-12)
        #expect(abs(try hexes.city.geometry().zoneArea - 500_000) < 1e-6)
        let squares = try loadScenario(minimalScenarioYAML)
        #expect(squares.city.zone.shape == .square && squares.city.zone.areaKm2 == 1)
    }

    @Test func anUnknownZoneShapeNamesTheKeyAndTheKnownShapes() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "zone: { side_km: 1 }", with: "zone: { shape: triangle, side_km: 1 }")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.zone.shape")
        #expect(error.reason.contains("unknown value 'triangle'") && error.reason.contains("square, hexagon"))
    }

    @Test func aZoneNoWholeCopyOfWhichFitsTheCityIsRefused() throws {
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "zone: { side_km: 1 }", with: "zone: { shape: hexagon, side_km: 2 }")
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.zone.side_km")
        #expect(error.reason.contains("no whole hexagon zone"))
    }

    @Test func aHotspotOutsideEveryWholeZoneIsRefused() throws {
        // 4 × 3 km in 1.5 km squares: 2 × 2 zones centred, x 0.5–3.5 km; a hotspot at x 0.2 km is in the strip.
        let yaml = minimalScenarioYAML.replacingOccurrences(of: "zone: { side_km: 1 }", with: """
            zone: { side_km: 1.5 }
              hotspots: [{ name: pier, x_km: 0.2, y_km: 1.5 }]
            """)
        let error = try #require(scenarioError(yaml))
        #expect(error.keyPath == "city.hotspots[0]")
        #expect(error.reason.contains("hotspot 'pier' lies outside every whole zone"))
    }

    @Test func theCanonicalFormKeepsTheShapeAndLoadsBackEqual() throws {
        let hexes = try loadScenario(Self.hexagonYAML)
        #expect(hexes.canonicalJSON.contains("\"shape\":\"hexagon\""))
        #expect(try Scenario.load(yaml: hexes.canonicalJSON, file: "canonical.json") == hexes)
        #expect(hexes.canonicalHash != (try loadScenario(minimalScenarioYAML.replacingOccurrences(
            of: "zone: { side_km: 1 }", with: "zone: { shape: square, area_km2: 0.5 }"))).canonicalHash)
    }

    @Test func aRunOnHexagonsDrawsEveryPlaceInsideAZoneAndTheReportDrawsHexagons() throws {
        let yaml = (Self.hexagonYAML + "\nduration_hours: 2\n")
            .replacingOccurrences(of: "requests_per_hour: 60", with: "requests_per_hour: 120")
            .replacingOccurrences(of: "start: \"06:00\", end: \"14:00\"", with: "start: \"00:00\", end: \"08:00\"")
        let scenario = try loadScenario(yaml)
        let result = try CitySimulation(scenario: scenario).run()
        let city = try scenario.city.geometry()
        #expect(!result.rides.isEmpty)
        for ride in result.rides {
            let origin = Position(x: ride.originX, y: ride.originY), destination = Position(x: ride.destinationX, y: ride.destinationY)
            #expect(city.contains(origin) && city.contains(destination))
            #expect(try city.zone(of: origin).index == ride.originZone)
        }
        let page = ReportPage.html(for: result)
        // One six-cornered outline per zone in the per-zone map.
        let hexagons = page.components(separatedBy: "<polygon points=\"").dropFirst()
            .filter { $0.prefix { $0 != "\"" }.split(separator: " ").count == 6 }
        #expect(hexagons.count == city.zoneCount)
        #expect(page.contains("\(city.zoneCount) hexagons of 0.5 km²"))
    }
}
