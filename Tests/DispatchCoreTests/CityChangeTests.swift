import Testing
@testable import DispatchCore

// MARK: - D1: changing the map area and zones

@Test func newZonesApplyToDriversWhoStartAShiftAfterTheChange() throws {
    // D1: zone size is a parameter; queues follow the new zones
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500))
    try f.send(.endShift(DriverID(1)))
    try f.send(.setCity(try CityGeometry(width: 4000, height: 4000, zoneSide: 1000)))
    #expect(f.core.city.zoneCount == 16)
    try f.send(.startShift(DriverID(1), at: point(1500, 500)))
    try f.send(.setAvailable(DriverID(1), true))
    #expect(f.queue(1) == [DriverID(1)])
    #expect(f.core.taxiCode(of: DriverID(1)) == "T1")
}

@Test func theMapCannotChangeWhileATaxiIsOnShift() throws {
    // D1: queues are per zone
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500), available: false)
    f.expectRefused(.setCity(try CityGeometry(width: 4000, height: 4000, zoneSide: 1000)),
                    with: .cityInUse("driver 1 is on shift"))
}

@Test func theMapCannotChangeWhileARequestIsOpen() throws {
    // D1, D11: a scheduled reservation keeps the map as it is
    let f = try Fixture()
    try f.send(.reserveRide(RequestID(1), customer: CustomerID(1), origin: point(500, 500),
                            destination: point(7000, 7000), meetingTime: 3 * 3600))
    f.expectRefused(.setCity(try CityGeometry(width: 4000, height: 4000, zoneSide: 1000)),
                    with: .cityInUse("request 1 is open"))
    #expect(f.core.city.zoneCount == 16)
}

@Test func endedRidesKeepTheirHistoryAcrossAMapChange() throws {
    // D1, D13: a finished ride can still be reported after the map changed
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500))
    try f.request(1, from: point(600, 600))
    try f.send(.accept(DriverID(1), RequestID(1)))
    try f.send(.pickedUp(DriverID(1), RequestID(1)))
    try f.send(.droppedOff(DriverID(1), RequestID(1), at: point(3000, 3000)))
    try f.send(.endShift(DriverID(1)))
    try f.send(.setCity(try CityGeometry(width: 4000, height: 4000, zoneSide: 1000)))
    #expect(f.status(request: 1) == .completed)
    try f.send(.report(.customer(CustomerID(1)), RequestID(1)))
    #expect(f.core.badEvaluations(of: DriverID(1)) == 1)
}
