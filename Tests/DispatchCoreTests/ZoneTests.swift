import Testing
@testable import DispatchCore

// MARK: - D1 Zones

@Test func zonesAreNumberedRowByRowFromTheSouthWestCorner() throws {
    // D1
    let city = try CityGeometry(width: 8000, height: 6000, zoneSide: 2000)
    #expect(city.columns == 4 && city.rows == 3 && city.zoneCount == 12)
    #expect(try city.zone(of: point(100, 100)) == ZoneID(0))
    #expect(try city.zone(of: point(2100, 100)) == ZoneID(1))
    #expect(try city.zone(of: point(100, 2100)) == ZoneID(4))
    #expect(try city.zone(of: point(7999, 5999)) == ZoneID(11))
}

@Test func zoneAreaGivesWholeSquareZonesOfThatAreaCentredInTheCity() throws {
    // D1: TAXInseconds zones are 2 km² each; issue 12 item 9: no sliver zones along the edges
    let city = try CityGeometry(width: 10_000, height: 10_000, zoneArea: 2_000_000)
    #expect(abs(city.zoneArea - 2_000_000) < 1e-6)
    #expect(city.columns == 7 && city.rows == 7)  // 10 km / 1414 m, whole squares only
    let side = 2_000_000.0.squareRoot(), margin = (10_000 - 7 * side) / 2   // 50.5 m strips on every edge
    for zone in 0..<city.zoneCount {
        let corners = city.outline(of: ZoneID(zone))
        #expect(abs((corners[2].x - corners[0].x) * (corners[2].y - corners[0].y) - 2_000_000) < 1e-3)
    }
    #expect(try city.zone(of: point(margin + 1, margin + 1)) == ZoneID(0))
    #expect(try city.zone(of: point(margin + side + 1, margin + 1)) == ZoneID(1))
    #expect(try city.zone(of: point(margin + 1, margin + side + 1)) == ZoneID(7))
    #expect(throws: DispatchError.positionOutsideCity(point(9_990, 5_000))) { try city.zone(of: point(9_990, 5_000)) }
    #expect(throws: DispatchError.positionOutsideCity(point(10, 5_000))) { try city.zone(of: point(10, 5_000)) }
}

@Test func aPositionOnAZoneBorderBelongsToTheZoneEastOrNorthOfIt() throws {
    // D1: each position lies in exactly one zone
    let city = try CityGeometry(width: 8000, height: 8000, zoneSide: 2000)
    #expect(try city.zone(of: point(2000, 0)) == ZoneID(1))
    #expect(try city.zone(of: point(0, 2000)) == ZoneID(4))
    #expect(try city.zone(of: point(2000, 2000)) == ZoneID(5))
}

@Test func positionsOnTheCityEdgeBelongToTheEdgeZones() throws {
    // D1
    let city = try CityGeometry(width: 8000, height: 8000, zoneSide: 2000)
    #expect(try city.zone(of: point(0, 0)) == ZoneID(0))
    #expect(try city.zone(of: point(8000, 0)) == ZoneID(3))
    #expect(try city.zone(of: point(0, 8000)) == ZoneID(12))
    #expect(try city.zone(of: point(8000, 8000)) == ZoneID(15))
}

@Test func aZoneSideThatDoesNotDivideTheCityLeavesOutTheEdgeStripsNotASliverZone() throws {
    // Issue 12 item 9: a 5 km × 2 km city in 2 km squares is two whole zones, 0.5 km of strip on each side
    let city = try CityGeometry(width: 5000, height: 2000, zoneSide: 2000)
    #expect(city.columns == 2 && city.rows == 1 && city.zoneCount == 2)
    #expect(try city.zone(of: point(600, 500)) == ZoneID(0))
    #expect(try city.zone(of: point(4400, 500)) == ZoneID(1))
    #expect(city.centre(of: ZoneID(1)) == point(3500, 1000))
    #expect(!city.contains(point(4600, 500)) && !city.contains(point(400, 500)))
}

@Test func cutSquaresKeepTheOldLayoutWithItsCutEdgeZone() throws {
    // The layout old command logs were written with: the last column is cut by the city edge.
    let city = CityGeometry(layout: try ZoneLayout(shape: .cutSquares, side: 2000, width: 5000, height: 2000))
    #expect(city.columns == 3 && city.rows == 1)
    #expect(try city.zone(of: point(4500, 500)) == ZoneID(2))
    #expect(city.centre(of: ZoneID(2)) == point(4500, 1000))
}

@Test func positionsOutsideTheCityHaveNoZone() throws {
    // D1
    let city = try CityGeometry(width: 8000, height: 8000, zoneSide: 2000)
    for outside in [point(-0.001, 10), point(10, -0.001), point(8000.001, 10), point(10, 8000.001),
                    point(.nan, 10), point(10, .infinity)] {
        #expect(throws: DispatchError.self) { try city.zone(of: outside) }
    }
}

@Test func invalidCityGeometryIsRefused() {
    // D1
    #expect(throws: DispatchError.self) { try CityGeometry(width: 0, height: 100, zoneSide: 10) }
    #expect(throws: DispatchError.self) { try CityGeometry(width: 100, height: .nan, zoneSide: 10) }
    #expect(throws: DispatchError.self) { try CityGeometry(width: 100, height: 100, zoneSide: 101) }
    #expect(throws: DispatchError.self) { try CityGeometry(width: 100, height: 100, zoneArea: -1) }
}

@Test func eachZoneHasItsOwnQueue() throws {
    // D1: exactly one queue per zone
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(2100, 100), point(7900, 7900), point(200, 200)])
    #expect(f.queue(0) == [DriverID(1), DriverID(4)])
    #expect(f.queue(1) == [DriverID(2)])
    #expect(f.queue(15) == [DriverID(3)])
    #expect((2...14).allSatisfy { f.queue($0).isEmpty })
}

// MARK: - D14 Queue status and ETA

@Test func queueStatusAnswersTheQueueLengthOfThePositionsZone() throws {
    // D14
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(1900, 1900), point(2100, 100)])
    #expect(try f.send(.queueStatus(point(1000, 1000))) == [.queueStatus(ZoneID(0), length: 2)])
    #expect(try f.send(.queueStatus(point(3000, 100))) == [.queueStatus(ZoneID(1), length: 1)])
    #expect(try f.send(.queueStatus(point(7000, 7000))) == [.queueStatus(ZoneID(15), length: 0)])
}

@Test func queueStatusCountsOnlyAvailableTaxis() throws {
    // D14, D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.addDriver(2, at: point(200, 200), available: false)
    #expect(try f.send(.queueStatus(point(1000, 1000))) == [.queueStatus(ZoneID(0), length: 1)])
}

@Test func estimateArrivalNamesTheNearestAvailableTaxiAndItsETA() throws {
    // D14: 500 m at 10 m/s
    let f = try Fixture()
    try f.addDrivers(at: [point(5000, 5000), point(1000, 1000), point(1000, 4000)])
    #expect(try f.send(.estimateArrival(point(1300, 1200))) == [.arrivalEstimate(DriverID(2), eta: 50)])
}

@Test func estimateArrivalWithNoAvailableTaxiHasNoETA() throws {
    // D14, D7: answered at once even with no taxi
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    #expect(try f.send(.estimateArrival(point(1300, 1200))) == [.arrivalEstimate(nil, eta: nil)])
}

@Test func queriesChangeNothing() throws {
    // D14: anyone may ask; asking moves no taxi
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(300, 300), patience: 100)
    let before = f.snapshot()
    try f.send(.queueStatus(point(1000, 1000)))
    try f.send(.estimateArrival(point(1000, 1000)))
    #expect(f.snapshot() == before)
}
