import Testing
@testable import DispatchCore

@Test func firstTaxiOfTheOriginZoneGetsTheOffer() throws {
    let city = try CityGeometry(width: 4000, height: 4000, zoneSide: 2000)
    let core = try DispatchCore(city: city, travel: GridTravelModel(speed: 10), policy: ZoneFIFOPolicy())
    for i in 1...2 {
        _ = try core.handle(.addDriver(DriverID(i), taxiCode: "T\(i)"), at: Double(i))
        _ = try core.handle(.startShift(DriverID(i), at: Position(x: 100 * Double(i), y: 100)), at: Double(i))
        _ = try core.handle(.setAvailable(DriverID(i), true), at: Double(i))
    }
    let effects = try core.handle(.requestRide(RequestID(1), customer: CustomerID(1), origin: Position(x: 1500, y: 1500),
                                               destination: Position(x: 3000, y: 3000), patience: 0), at: 10)
    #expect(effects.first == .offer(DriverID(1), RequestID(1), expiresAt: 70))
    #expect(core.invariantViolations().isEmpty)
}
