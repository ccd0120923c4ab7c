import TestSupport
import Testing
@testable import DispatchCore

// MARK: - D2 Availability

@Test func turningAvailableJoinsTheTailOfTheZoneQueue() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(1500, 1500), point(900, 300)])
    #expect(f.queue(0) == [DriverID(1), DriverID(2), DriverID(3)])
    #expect(f.status(3) == .available(ZoneID(0)))
}

@Test func aDriverOnShiftIsNotQueuedUntilAvailable() throws {
    // D2: only available taxis are in a queue
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    #expect(f.status(1) == .unavailable)
    #expect(f.queue(0).isEmpty)
}

@Test func turningNotAvailableLeavesTheQueue() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100), point(300, 100)])
    try f.send(.setAvailable(DriverID(2), false))
    #expect(f.status(2) == .unavailable)
    #expect(f.queue(0) == [DriverID(1), DriverID(3)])
    #expect(f.core.availableTaxiCount == 2)
}

@Test func turningAvailableAgainJoinsTheTailNotTheOldPlace() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100), point(300, 100)])
    try f.send(.setAvailable(DriverID(1), false))
    try f.send(.setAvailable(DriverID(1), true))
    #expect(f.queue(0) == [DriverID(2), DriverID(3), DriverID(1)])
}

@Test func repeatingAvailableKeepsTheQueuePlace() throws {
    // D2, D15: a repeated toggle is not a new arrival
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100)])
    try f.send(.setAvailable(DriverID(1), true))
    #expect(f.queue(0) == [DriverID(1), DriverID(2)])
}

@Test func anAvailableTaxiMovingZoneGoesToTheTailOfTheNewZone() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100), point(2100, 100), point(2200, 100)])
    try f.send(.updatePosition(DriverID(1), point(2500, 500)))
    #expect(f.queue(0) == [DriverID(2)])
    #expect(f.queue(1) == [DriverID(3), DriverID(4), DriverID(1)])
    #expect(f.status(1) == .available(ZoneID(1)))
    #expect(f.core.position(of: DriverID(1)) == point(2500, 500))
}

@Test func anAvailableTaxiMovingInsideItsZoneKeepsItsPlace() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100)])
    try f.send(.updatePosition(DriverID(1), point(1900, 1900)))
    #expect(f.queue(0) == [DriverID(1), DriverID(2)])
}

@Test func aTaxiThatMovedWhileNotAvailableJoinsTheZoneItIsIn() throws {
    // D2: the queue of the zone its GPS position is in
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    try f.send(.updatePosition(DriverID(1), point(4100, 4100)))
    try f.send(.setAvailable(DriverID(1), true))
    #expect(f.queue(10) == [DriverID(1)])
    #expect(f.queue(0).isEmpty)
}

@Test func endingTheShiftLeavesTheQueue() throws {
    // D2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 100)])
    try f.send(.endShift(DriverID(1)))
    #expect(f.status(1) == .offShift)
    #expect(f.queue(0) == [DriverID(2)])
}

// MARK: - D15 Fairness

@Test func theLongestWaitingTaxiIsOfferedFirstNotTheNearest() throws {
    // D15, D3: driver 2 turned available first; driver 1 stands at the pickup
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500), available: false)
    try f.addDriver(2, at: point(1900, 1900))
    try f.send(.setAvailable(DriverID(1), true))
    let effects = try f.request(1, from: point(500, 500))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
}

@Test func zoneFIFOHasNoFairnessViolationsOverABusySequence() throws {
    // D15: every offer goes to the head of the origin zone's queue
    let f = try Fixture(rules: rules(onTimeout: .requeue, onDecline: .requeue))
    var rng = SplitMix64(seed: 15)
    let positions = (0..<24).map { _ in point(Double.random(in: 0...8000, using: &rng), Double.random(in: 0...8000, using: &rng)) }
    try f.addDrivers(at: positions)
    for id in 1...200 {
        f.time += 7
        let origin = point(Double.random(in: 0...8000, using: &rng), Double.random(in: 0...8000, using: &rng))
        let head = f.queue(f.core.city.unsafeZoneIndex(origin)).first
        let effects = try f.request(id, from: origin)
        guard let offer = effects.offers.first else { continue }
        if let head { #expect(offer.driver == head, "request \(id)") }
        switch id % 3 {
        case 0: try f.send(.decline(offer.driver, RequestID(id)))
        case 1: try f.fire(.offerTimeout, from: effects)
        default:
            try f.send(.accept(offer.driver, RequestID(id)))
            try f.send(.pickedUp(offer.driver, RequestID(id)))
            try f.send(.droppedOff(offer.driver, RequestID(id), at: origin))
            try f.send(.setAvailable(offer.driver, true))
        }
        // Whoever holds the request now: let it go so the fleet stays busy but free.
        while case .offered(let d) = f.status(request: id) { try f.send(.decline(d, RequestID(id))) }
    }
    #expect(f.core.statistics.offersSent > 200)
}

