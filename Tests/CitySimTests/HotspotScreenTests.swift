import DispatchCore
import Testing
@testable import CitySim

/// `drawDestination`'s radius screen of hotspot proposals: it may only save work, never change a draw.
@Suite("Hotspot radius screen")
struct HotspotScreenTests {
    /// A 10 × 10 km city whose 0.4-km station hotspot cannot reach a 1–4 km band from inside itself
    /// except near its rim: megacity's pathological draw in small.
    static func station(metric: String) throws -> Scenario {
        try SimulationRunTests.scenario("smoke.yaml", [
            "city.width_km=10", "city.height_km=10", "city.zone.area_km2=1", "city.uniform_weight=0.2",
            "city.metric=\(metric)",
            "city.hotspots=[{name: station, x_km: 5.2, y_km: 4.7, radius_km: 0.4, origin_weight: 1, destination_weight: 6}]",
            "demand.min_trip_km=1", "demand.max_trip_km=4"])
    }

    @Test("screening hotspot proposals by radius leaves every destination and the random stream as they were",
          arguments: ["manhattan", "euclidean"])
    func screeningChangesNoDraw(metric: String) throws {
        let scenario = try Self.station(metric: metric)
        let screened = try CityModel(scenario: scenario), plain = try CityModel(scenario: scenario)
        plain.screensHotspotProposals = false
        let station = Position(x: 5_200, y: 4_700)
        let places = RandomStream(name: "origins", seed: 4, replication: 0)
        let a = RandomStream(name: "destinations", seed: 8, replication: 0)
        let b = RandomStream(name: "destinations", seed: 8, replication: 0)
        var fromStation = 0
        for i in 0..<600 {
            // Half the origins inside the station (where the screen works), half anywhere.
            let origin = i.isMultiple(of: 2)
                ? Position(x: station.x + 380 * (places.uniform() - 0.5) * 1.4, y: station.y + 380 * (places.uniform() - 0.5) * 1.4)
                : screened.drawOrigin(places)
            let x = try screened.drawDestination(from: origin, a), y = try plain.drawDestination(from: origin, b)
            #expect(x.x.bitPattern == y.x.bitPattern && x.y.bitPattern == y.y.bitPattern, "draw \(i) from \(origin): \(x) vs \(y)")
            fromStation += x.euclideanDistance(to: station) <= 400 ? 1 : 0
        }
        #expect(a.uniform() == b.uniform(), "the two streams are no longer in step")
        // Power: the screen rejected many proposals, and destinations still came from the station itself
        // (those are the draws a screen too eager would lose).
        #expect(screened.screenedProposals > 10_000, "screened \(screened.screenedProposals)")
        #expect(plain.screenedProposals == 0)
        #expect(fromStation > 10, "\(fromStation) destinations in the station")
    }

    @Test("only a disc wholly inside square zones is screened")
    func onlyWholeDiscsInSquareZonesAreScreened() throws {
        let squares = try CityGeometry(width: 10_000, height: 10_000, zoneArea: 1_000_000).layout
        let hexagons = try CityGeometry(width: 10_000, height: 10_000, zoneShape: .hexagon, zoneArea: 1_000_000).layout
        func inside(_ layout: ZoneLayout, _ x: Double, _ y: Double, _ r: Double) -> Bool {
            HotspotScreen.discInside(layout, bounds: layout.bounds, centre: Position(x: x, y: y), radius: r)
        }
        #expect(inside(squares, 5_000, 5_000, 400))
        #expect(inside(squares, 600, 9_000, 400))
        #expect(!inside(squares, 300, 5_000, 400), "crosses the west edge")
        #expect(!inside(squares, 5_000, 9_800, 400), "crosses the north edge")
        #expect(!inside(hexagons, 5_000, 5_000, 400), "hexagons leave gaps along the edges: never screened")
    }

    @Test("the band bound holds for every point of the circle, in both metrics")
    func theBandBoundHoldsOnTheCircle() {
        let origin = Position(x: 0, y: 0), centre = Position(x: 300, y: -200)
        for manhattan in [true, false] {
            for r in stride(from: 0.0, through: 800, by: 50) {
                let lengths = (0..<720).map { k -> Double in
                    let p = HotspotScreen.point(centre: centre, r: r, v: Double(k) / 720)
                    return manhattan ? origin.manhattanDistance(to: p) : origin.euclideanDistance(to: p)
                }
                let (low, high) = (lengths.min()!, lengths.max()!)
                // Bands just beyond the circle's reach are screened; bands it touches are not.
                #expect(!HotspotScreen.circleMayMeetBand(origin: origin, centre: centre, radius: r, manhattan: manhattan,
                                                         minimum: high + 2, maximum: high + 1_000))
                #expect(HotspotScreen.circleMayMeetBand(origin: origin, centre: centre, radius: r, manhattan: manhattan,
                                                        minimum: high - 1, maximum: high + 1_000))
                #expect(HotspotScreen.circleMayMeetBand(origin: origin, centre: centre, radius: r, manhattan: manhattan,
                                                        minimum: 0, maximum: low + 1))
            }
        }
    }
}
