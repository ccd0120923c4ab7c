import Testing
@testable import DispatchCore

/// Drivers 1 (offered request 1 of customer 1) and 2 (available) in zone 0, at time 10.
private func offeredFixture() throws -> Fixture {
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500), at: 10)
    return f
}

private let outside: [Position] = [point(-1, 100), point(100, -1), point(8001, 100), point(100, 8001),
                                   point(.nan, 100), point(100, .nan), point(.infinity, 100), point(100, -.infinity)]

@Test func commandsNamingAnUnknownDriverAreRefused() throws {
    let f = try offeredFixture()
    let ghost = DriverID(99)
    for command: Command in [.startShift(ghost, at: point(1, 1)), .endShift(ghost), .setAvailable(ghost, true),
                             .updatePosition(ghost, point(1, 1)), .accept(ghost, RequestID(1)),
                             .decline(ghost, RequestID(1)), .pickedUp(ghost, RequestID(1)),
                             .droppedOff(ghost, RequestID(1), at: point(1, 1))] {
        f.expectRefused(command, with: .unknownDriver(ghost))
    }
}

@Test func commandsNamingAnUnknownRequestAreRefused() throws {
    let f = try offeredFixture()
    let ghost = RequestID(99)
    for command: Command in [.cancel(ghost, by: CustomerID(1)), .accept(DriverID(1), ghost), .decline(DriverID(1), ghost),
                             .pickedUp(DriverID(1), ghost), .report(.customer(CustomerID(1)), ghost),
                             .timerFired(TimerID(kind: .offerTimeout, request: ghost, generation: 1))] {
        f.expectRefused(command, with: .unknownRequest(ghost))
    }
}

@Test func aDoubleAcceptIsRefused() throws {
    let f = try offeredFixture()
    try f.send(.accept(DriverID(1), RequestID(1)))
    f.expectRefused(.accept(DriverID(1), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(1), state: .toPickup(RequestID(1)), command: "accept"))
}

@Test func anAcceptByADriverWithoutTheOfferIsRefused() throws {
    let f = try offeredFixture()
    f.expectRefused(.accept(DriverID(2), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(2), state: .available(ZoneID(0)), command: "accept"))
    f.expectRefused(.decline(DriverID(2), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(2), state: .available(ZoneID(0)), command: "decline"))
}

@Test func anAcceptOfAnotherRequestThanTheOfferedOneIsRefused() throws {
    let f = try offeredFixture()
    try f.request(2, from: point(600, 600))  // offered to driver 2
    f.expectRefused(.accept(DriverID(2), RequestID(1)), with: .notOfferedToDriver(RequestID(1), DriverID(2)))
}

@Test func anAcceptAfterTheOfferLapsedIsRefused() throws {
    // D4: the offer has moved on to driver 2
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.fire(.offerTimeout, from: try f.request(1, from: point(500, 500)))
    f.expectRefused(.accept(DriverID(1), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(1), state: .available(ZoneID(0)), command: "accept"))
}

@Test func aCancelAfterAcceptanceIsRefused() throws {
    // D10
    let f = try offeredFixture()
    try f.send(.accept(DriverID(1), RequestID(1)))
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)),
                    with: .illegalRequestTransition(RequestID(1), state: .accepted(DriverID(1)), command: "be cancelled"))
}

@Test func aCancelByAnotherCustomerIsRefused() throws {
    // D10
    let f = try offeredFixture()
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(2)), with: .notAParty(RequestID(1)))
}

@Test func aCancelOfAnEndedRequestIsRefused() throws {
    let f = try offeredFixture()
    try f.send(.cancel(RequestID(1), by: CustomerID(1)))
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)),
                    with: .illegalRequestTransition(RequestID(1), state: .cancelled, command: "be cancelled"))
}

@Test func aReservationLessThanTwoHoursAheadChangesNothing() throws {
    // D11
    let f = try offeredFixture()
    f.expectRefused(.reserveRide(RequestID(2), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2),
                                 meetingTime: 7209),
                    with: .reservationTooSoon(meetingTime: 7209, earliestAllowed: 7210))
    f.expectRefused(.reserveRide(RequestID(2), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2),
                                 meetingTime: .infinity),
                    with: .invalidTime(.infinity))
}

@Test func positionsOutsideTheCityOrNotFiniteAreRefused() throws {
    // D1: NaN compares unequal, so the expected error is matched by case
    let f = try offeredFixture()
    try f.addDriver(3, at: point(300, 300), available: false)
    try f.send(.addDriver(DriverID(4), taxiCode: "T4"))
    for p in outside {
        for command: Command in [.startShift(DriverID(4), at: p), .updatePosition(DriverID(2), p),
                                 .requestRide(RequestID(5), customer: CustomerID(5), origin: p, destination: point(1, 1), patience: 0),
                                 .requestRide(RequestID(5), customer: CustomerID(5), origin: point(1, 1), destination: p, patience: 0),
                                 .reserveRide(RequestID(5), customer: CustomerID(5), origin: p, destination: point(1, 1), meetingTime: 9000),
                                 .reserveRide(RequestID(5), customer: CustomerID(5), origin: point(1, 1), destination: p, meetingTime: 9000),
                                 .queueStatus(p), .estimateArrival(p)] {
            f.expectRefused(command) { error in
                guard case .positionOutsideCity(let refused) = error else { return false }
                return refused.x.bitPattern == p.x.bitPattern && refused.y.bitPattern == p.y.bitPattern
            }
        }
    }
}

@Test func aRequestWithBothPlacesOutsideTheCityIsRefusedNamingItsOrigin() throws {
    let f = try offeredFixture()
    let origin = point(-5, 1), destination = point(9000, 1)
    for command: Command in [.requestRide(RequestID(5), customer: CustomerID(5), origin: origin, destination: destination, patience: 0),
                             .reserveRide(RequestID(5), customer: CustomerID(5), origin: origin, destination: destination, meetingTime: 9000)] {
        f.expectRefused(command, with: .positionOutsideCity(origin))
    }
}

@Test func aDropOffOutsideTheCityIsRefused() throws {
    let f = try offeredFixture()
    try f.send(.accept(DriverID(1), RequestID(1)))
    try f.send(.pickedUp(DriverID(1), RequestID(1)))
    f.expectRefused(.droppedOff(DriverID(1), RequestID(1), at: point(9000, 1)), with: .positionOutsideCity(point(9000, 1)))
}

@Test func negativeOrNotFiniteTimesAreRefused() throws {
    let f = try offeredFixture()
    f.expectRefused(.queueStatus(point(1, 1)), at: -1, with: .invalidTime(-1))
    f.expectRefused(.queueStatus(point(1, 1)), at: .infinity, with: .invalidTime(.infinity))
    f.expectRefused(.queueStatus(point(1, 1)), at: .nan) { error in
        if case .invalidTime(let time) = error { time.isNaN } else { false }
    }
}

/// The core takes a time exactly when it is finite and not below zero: −0 and the largest finite time are taken, the
/// smallest negative one and every NaN refused (the check reads the time's bits).
@Test func everyFiniteTimeNotBelowZeroIsTakenAndNoOtherOne() throws {
    let core = try DispatchCore(city: CityGeometry(width: 2000, height: 2000, zoneSide: 1000),
                                travel: GridTravelModel(speed: 8), policy: ZoneFIFOPolicy())
    let here = Position(x: 1, y: 1)
    for time in [-0.0, 0, .leastNonzeroMagnitude, .leastNormalMagnitude, 1, 1e300, .greatestFiniteMagnitude] {
        #expect((try? core.handle(.queueStatus(here), at: time)) != nil, "time \(time) refused")
    }
    for time in [-Double.leastNonzeroMagnitude, -1e-300, -1, -.greatestFiniteMagnitude, -.infinity, .infinity,
                 .nan, -.nan, .signalingNaN] {
        #expect("time \(time) taken") { try core.handle(.queueStatus(here), at: time) } throws: { error in
            if case DispatchError.invalidTime = error { true } else { false }
        }
    }
}

@Test func timeGoingBackwardsIsRefused() throws {
    let f = try offeredFixture()
    f.expectRefused(.setAvailable(DriverID(2), false), at: 9.5, with: .timeWentBackwards(now: 9.5, last: 10))
}

@Test func negativeOrNaNPatienceIsRefused() throws {
    // D7
    let f = try offeredFixture()
    f.expectRefused(.requestRide(RequestID(2), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2), patience: -1),
                    with: .invalidPatience(-1))
    f.expectRefused(.requestRide(RequestID(2), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2),
                                 patience: .nan)) { error in
        if case .invalidPatience(let patience) = error { patience.isNaN } else { false }
    }
}

@Test func duplicateIdsAreRefused() throws {
    let f = try offeredFixture()
    f.expectRefused(.addDriver(DriverID(1), taxiCode: "other"), with: .duplicateDriver(DriverID(1)))
    f.expectRefused(.requestRide(RequestID(1), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2), patience: 0),
                    with: .duplicateRequest(RequestID(1)))
    f.expectRefused(.reserveRide(RequestID(1), customer: CustomerID(2), origin: point(1, 1), destination: point(2, 2),
                                 meetingTime: 9000),
                    with: .duplicateRequest(RequestID(1)))
}

@Test func illegalShiftAndAvailabilityMovesAreRefused() throws {
    // D2: only a driver on shift toggles availability; an engaged driver cannot leave
    let f = try offeredFixture()
    try f.send(.addDriver(DriverID(3), taxiCode: "T3"))
    f.expectRefused(.setAvailable(DriverID(3), true),
                    with: .illegalDriverTransition(DriverID(3), state: .offShift, command: "turn available"))
    f.expectRefused(.endShift(DriverID(3)),
                    with: .illegalDriverTransition(DriverID(3), state: .offShift, command: "end the shift"))
    f.expectRefused(.startShift(DriverID(2), at: point(1, 1)),
                    with: .illegalDriverTransition(DriverID(2), state: .available(ZoneID(0)), command: "start a shift"))
    f.expectRefused(.endShift(DriverID(1)),
                    with: .illegalDriverTransition(DriverID(1), state: .offered(RequestID(1)), command: "end the shift"))
    f.expectRefused(.setAvailable(DriverID(1), false),
                    with: .illegalDriverTransition(DriverID(1), state: .offered(RequestID(1)), command: "turn not available"))
}

@Test func pickUpAndDropOffOutOfOrderAreRefused() throws {
    let f = try offeredFixture()
    f.expectRefused(.pickedUp(DriverID(1), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(1), state: .offered(RequestID(1)), command: "pick up request 1"))
    try f.send(.accept(DriverID(1), RequestID(1)))
    f.expectRefused(.droppedOff(DriverID(1), RequestID(1), at: point(1, 1)),
                    with: .illegalDriverTransition(DriverID(1), state: .toPickup(RequestID(1)), command: "drop off request 1"))
}

@Test func invalidRulesAreRefusedAtConstruction() throws {
    let city = try CityGeometry(width: 100, height: 100, zoneSide: 10)
    let travel = try GridTravelModel(speed: 10)
    var bad = [DispatchRules](repeating: DispatchRules(), count: 5)
    bad[0].offerTimeout = 0
    bad[1].allocationLead = 8000
    bad[2].madFactor = 0.5
    bad[3].fare.minimum = -1
    bad[4].madSlack = .nan
    let reasons = ["offer_timeout_s must be > 0", "allocation_lead_s must not exceed reservation_min_lead_s",
                   "mad.factor must be >= 1", "fare amounts must be finite and >= 0",
                   "mad.slack_s must be finite and >= 0 (got nan)"]
    for (rules, reason) in zip(bad, reasons) {
        #expect(throws: DispatchError.invalidConfiguration(reason)) {
            try DispatchCore(city: city, travel: travel, policy: ZoneFIFOPolicy(), rules: rules)
        }
    }
}

@Test func aFiniteTimeFarInTheFutureIsHandled() throws {
    // Any finite time >= 0 is valid; the hour-of-day speed lookup must not overflow.
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    #expect(try f.send(.estimateArrival(point(600, 100)), at: 1e30) == [.arrivalEstimate(DriverID(1), eta: 50)])
}
