import Foundation
import Testing
import TestSupport
@testable import DispatchCore

/// Zone layouts (D1: shape and size are parameters; issue 12 item 9): whole squares and hexagons of the stated area.
@Suite struct ZoneLayoutTests {
    /// Shoelace area of a polygon.
    static func area(_ corners: [Position]) -> Double {
        var twice = 0.0
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            twice += a.x * b.y - b.x * a.y
        }
        return abs(twice) / 2
    }

    /// Whether `p` is strictly inside the convex polygon `corners` (counter-clockwise), with a tolerance.
    static func inside(_ p: Position, _ corners: [Position], tolerance: Double = 1e-6) -> Bool {
        for i in corners.indices {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            if cross / length < -tolerance { return false }
        }
        return true
    }

    static func randomPoints(_ n: Int, width: Double, height: Double, seed: UInt64) -> [Position] {
        var random = SplitMix64(seed: seed)
        return (0..<n).map { _ in Position(x: random.nextUnit() * width, y: random.nextUnit() * height) }
    }

    @Test func everyHexagonHasTheStatedAreaAndSixCounterClockwiseCorners() throws {
        let layout = try ZoneLayout(shape: .hexagon, zoneArea: 2_000_000, width: 10_000, height: 10_000)
        #expect(layout.zoneCount == 42 && layout.rows == 7)
        for zone in 0..<layout.zoneCount {
            let corners = layout.outline(of: zone)
            #expect(corners.count == 6)
            #expect(abs(Self.area(corners) - 2_000_000) < 1e-3)
            // Whole: every corner lies in the city rectangle.
            #expect(corners.allSatisfy { $0.x >= -1e-6 && $0.x <= 10_000 + 1e-6 && $0.y >= -1e-6 && $0.y <= 10_000 + 1e-6 })
        }
    }

    @Test func aPointIsInTheHexagonWhoseOutlineContainsItAndOutsideTheCityWhenInNone() throws {
        let layout = try ZoneLayout(shape: .hexagon, zoneArea: 1_500_000, width: 9_000, height: 7_000)
        let outlines = (0..<layout.zoneCount).map { layout.outline(of: $0) }
        var outsideSeen = 0
        for p in Self.randomPoints(4_000, width: 9_000, height: 7_000, seed: 12) {
            let containing = outlines.indices.filter { Self.inside(p, outlines[$0], tolerance: 1e-6) }
            if let zone = layout.zoneIndex(at: p) {
                #expect(containing.contains(zone), "\(p) put in zone \(zone), inside \(containing)")
            } else {
                outsideSeen += 1
                #expect(containing.isEmpty, "\(p) refused but inside zones \(containing)")
            }
        }
        #expect(outsideSeen > 0)   // the ragged edge strips exist and are refused
    }

    @Test func hexagonsAreNumberedRowByRowAndEachCentreIsInItsOwnZone() throws {
        let layout = try ZoneLayout(shape: .hexagon, side: 1_000, width: 10_000, height: 8_000)
        var previous = Position(x: -.infinity, y: -.infinity)
        for zone in 0..<layout.zoneCount {
            let centre = layout.centre(of: zone)
            #expect(layout.zoneIndex(at: centre) == zone)
            let (row, column) = layout.rowAndColumn(of: zone)
            #expect(abs(centre.y - (layout.origin.y + 1.5 * 1_000 * Double(row))) < 1e-9)
            #expect(column >= 0 && column < (row % 2 == 0 ? layout.columns : layout.oddRowColumns))
            // South to north, then west to east within a row.
            #expect(centre.y > previous.y + 1e-9 || (abs(centre.y - previous.y) < 1e-9 && centre.x > previous.x))
            previous = centre
        }
        // Neighbours across rows are one hexagon width apart.
        let width = 1_000 * 3.0.squareRoot()
        let a = layout.centre(of: 0), b = layout.centre(of: layout.columns)   // row 1, column 0: north-east of zone 0
        #expect(abs(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() - width) < 1e-9)
    }

    @Test func wholeSquaresMatchTheirOutlinesAndLeaveTheStripsOut() throws {
        let layout = try ZoneLayout(shape: .square, zoneArea: 2_250_000, width: 10_000, height: 10_000)
        #expect(layout.zoneCount == 36)
        let outlines = (0..<layout.zoneCount).map { layout.outline(of: $0) }
        for corners in outlines { #expect(abs(Self.area(corners) - 2_250_000) < 1e-3) }
        for p in Self.randomPoints(2_000, width: 10_000, height: 10_000, seed: 9) {
            let containing = outlines.indices.filter { Self.inside(p, outlines[$0]) }
            if let zone = layout.zoneIndex(at: p) { #expect(containing.contains(zone)) } else { #expect(containing.isEmpty) }
        }
    }

    @Test func containsAnswersExactlyWhenAPointHasAZone() throws {
        // Whole squares (with edge strips left out), cut squares and hexagons; points inside, in the strips,
        // on the edges and corners, outside, and not finite.
        let layouts = [try ZoneLayout(shape: .square, zoneArea: 2_000_000, width: 10_300, height: 9_700),
                       try ZoneLayout(shape: .cutSquares, side: 1414, width: 7300, height: 5100),
                       try ZoneLayout(shape: .hexagon, zoneArea: 2_000_000, width: 10_000, height: 10_000)]
        for layout in layouts {
            var points = Self.randomPoints(4_000, width: layout.width * 1.2, height: layout.height * 1.2, seed: 17)
                .map { Position(x: $0.x - layout.width * 0.1, y: $0.y - layout.height * 0.1) }
            let xs = [-1, 0, layout.side, layout.width - 1e-9, layout.width, layout.width + 1e-9, .nan, .infinity]
            let ys = [-1, 0, layout.side, layout.height - 1e-9, layout.height, layout.height + 1e-9, .nan, -.infinity]
            points += xs.flatMap { x in ys.map { Position(x: x, y: $0) } }
            for p in points { #expect(layout.contains(p) == (layout.zoneIndex(at: p) != nil), "\(layout.shape) at \(p)") }
            #expect(points.contains { layout.contains($0) } && points.contains { !layout.contains($0) })
        }
    }

    @Test func aZoneLargerThanTheCityIsRefused() {
        #expect(throws: DispatchError.self) { try ZoneLayout(shape: .hexagon, zoneArea: 30_000_000, width: 4_000, height: 4_000) }
        #expect(throws: DispatchError.self) { try ZoneLayout(shape: .square, side: 5_000, width: 4_000, height: 9_000) }
    }

    @Test func theCoreQueuesTaxisInHexagonalZonesAndRefusesTheEdgeStrips() throws {
        let city = try CityGeometry(width: 10_000, height: 10_000, zoneShape: .hexagon, zoneArea: 2_000_000)
        let core = try DispatchCore(city: city, travel: GridTravelModel(speed: 10), policy: ZoneFIFOPolicy(), rules: DispatchRules())
        let centre = city.centre(of: ZoneID(20))
        _ = try core.handle(.addDriver(DriverID(1), taxiCode: "TX-1"), at: 0)
        _ = try core.handle(.startShift(DriverID(1), at: centre), at: 0)
        _ = try core.handle(.setAvailable(DriverID(1), true), at: 0)
        #expect(core.queue(of: ZoneID(20)) == [DriverID(1)])
        #expect(throws: DispatchError.positionOutsideCity(point(5, 5))) {
            try core.handle(.requestRide(RequestID(1), customer: CustomerID(1), origin: point(5, 5), destination: centre, patience: 0), at: 1)
        }
    }
}
