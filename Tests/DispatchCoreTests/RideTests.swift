import Testing
@testable import DispatchCore

/// Offers request 1 of customer 1 from (500, 500) to driver 1 (of 2 in zone 0) and accepts it at `time`.
private func acceptedRide(_ f: Fixture, at time: Double = 0) throws -> [Effect] {
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500), to: point(4500, 500), at: time)
    return try f.send(.accept(DriverID(1), RequestID(1)), at: time)
}

// MARK: - D9 Maximum allowed delay

@Test func aLateTaxiLosesTheRideToTheNextTaxi() throws {
    // D9
    let f = try Fixture()
    let effects = try f.fire(.maximumAllowedDelay, from: try acceptedRide(f))
    #expect(effects.first == .assignmentRevoked(DriverID(1), RequestID(1)))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    #expect(f.status(1) == .unavailable)
    #expect(f.status(request: 1) == .offered(DriverID(2)))
    #expect(f.core.statistics.madReassignments == 1)
}

@Test func theCustomerGetsTheNewTaxiCodeAndETAOnReassignment() throws {
    // D9: driver 2 is 600 m from the pickup
    let f = try Fixture()
    try f.fire(.maximumAllowedDelay, from: try acceptedRide(f))
    let effects = try f.send(.accept(DriverID(2), RequestID(1)))
    #expect(effects.first == .reassigned(RequestID(1), CustomerID(1), DriverID(2), eta: 60))
    #expect(f.core.taxiCode(of: DriverID(2)) == "T2")
}

@Test func theLateDriverCanNoLongerPickUp() throws {
    // D9
    let f = try Fixture()
    try f.fire(.maximumAllowedDelay, from: try acceptedRide(f))
    f.expectRefused(.pickedUp(DriverID(1), RequestID(1)),
                    with: .illegalDriverTransition(DriverID(1), state: .unavailable, command: "pick up request 1"))
}

@Test func theDelayTimerIsIgnoredOnceTheCustomerIsOnBoard() throws {
    // D9: stale timers are harmless
    let f = try Fixture()
    let accepted = try acceptedRide(f)
    try f.send(.pickedUp(DriverID(1), RequestID(1)), at: 50)
    #expect(try f.fire(.maximumAllowedDelay, from: accepted).isEmpty)
    #expect(f.status(1) == .onRide(RequestID(1)))
    #expect(f.core.statistics.madReassignments == 0)
}

@Test func aLateTaxiWithNoReplacementLeavesTheCustomerWaitingForTheSlack() throws {
    // D9, D7: the promised customer waits at least madSlack for another taxi
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.request(1, from: point(500, 500))
    let revoked = try f.fire(.maximumAllowedDelay, from: try f.send(.accept(DriverID(1), RequestID(1))))
    #expect(revoked.contains(.waitingForTaxi(RequestID(1), until: f.time + 120)))
    #expect(f.status(request: 1) == .pending)
    #expect(try f.fire(.patience, from: revoked) == [.requestExpired(RequestID(1), CustomerID(1))])
}

// MARK: - D10 Cancel

@Test func aWaitingRequestCanBeCancelled() throws {
    // D10
    let f = try Fixture()
    try f.request(1, from: point(500, 500), patience: 300)
    #expect(try f.send(.cancel(RequestID(1), by: CustomerID(1))) == [.requestCancelled(RequestID(1))])
    #expect(f.status(request: 1) == .cancelled)
}

@Test func cancellingAnOfferedRequestWithdrawsTheOfferAndTheDriverKeepsTheirPlace() throws {
    // D10, D15: the driver did nothing wrong
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    try f.request(1, from: point(500, 500))
    #expect(f.queue(0) == [DriverID(2), DriverID(3)])
    let effects = try f.send(.cancel(RequestID(1), by: CustomerID(1)))
    #expect(effects == [.offerWithdrawn(DriverID(1), RequestID(1)), .requestCancelled(RequestID(1))])
    #expect(f.queue(0) == [DriverID(1), DriverID(2), DriverID(3)])
    #expect(f.status(1) == .available(ZoneID(0)))
}

@Test func aWithdrawnTaxiServesAnotherWaitingCustomer() throws {
    // D10, D7
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.request(1, from: point(500, 500))
    try f.request(2, from: point(600, 600), patience: 300)
    let effects = try f.send(.cancel(RequestID(1), by: CustomerID(1)))
    #expect(effects.offers.map(\.request) == [RequestID(2)])
}

@Test func cancellingAfterAcceptanceIsRefused() throws {
    // D10
    let f = try Fixture()
    _ = try acceptedRide(f)
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)),
                    with: .illegalRequestTransition(RequestID(1), state: .accepted(DriverID(1)), command: "be cancelled"))
}

@Test func anotherCustomerCannotCancel() throws {
    // D10: only the party
    let f = try Fixture()
    try f.request(1, from: point(500, 500), patience: 300)
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(2)), with: .notAParty(RequestID(1)))
}

// MARK: - D12 One open ride

@Test func aSecondOpenRequestOfACustomerIsRefused() throws {
    // D12
    let f = try Fixture()
    try f.request(1, customer: 5, from: point(500, 500), patience: 300)
    f.expectRefused(.requestRide(RequestID(2), customer: CustomerID(5), origin: point(1, 1),
                                 destination: point(2, 2), patience: 0),
                    with: .customerHasOpenRequest(CustomerID(5), open: RequestID(1)))
}

@Test func aCustomerMayRequestAgainOnceTheFirstRequestEnded() throws {
    // D12: rejected, cancelled and completed all end it
    let f = try Fixture()
    try f.request(1, customer: 5, from: point(500, 500))  // rejected: no taxi
    try f.request(2, customer: 5, from: point(500, 500), patience: 100)
    try f.send(.cancel(RequestID(2), by: CustomerID(5)))
    try f.addDrivers(at: [point(100, 100)])
    try f.request(3, customer: 5, from: point(500, 500))
    try f.send(.accept(DriverID(1), RequestID(3)))
    f.expectRefused(.requestRide(RequestID(4), customer: CustomerID(5), origin: point(1, 1), destination: point(2, 2), patience: 0),
                    with: .customerHasOpenRequest(CustomerID(5), open: RequestID(3)))
    try f.send(.pickedUp(DriverID(1), RequestID(3)))
    try f.send(.droppedOff(DriverID(1), RequestID(3), at: point(7000, 7000)))
    try f.request(4, customer: 5, from: point(500, 500))
    #expect(f.status(request: 4) == .rejected)
}

@Test func differentCustomersMayHaveOpenRequestsAtOnce() throws {
    // D12 is per customer
    let f = try Fixture()
    try f.request(1, customer: 5, from: point(500, 500), patience: 300)
    try f.request(2, customer: 6, from: point(500, 500), patience: 300)
    #expect(f.status(request: 2) == .pending)
}

// MARK: - D13 Ride end

/// Ride of 4000 m (Manhattan) picked up at 100 s and dropped off at 700 s: 3 + 4.4 + 3 = 10.4.
private func completedRide(_ f: Fixture) throws -> (pickup: [Effect], dropoff: [Effect]) {
    _ = try acceptedRide(f)
    let pickup = try f.send(.pickedUp(DriverID(1), RequestID(1)), at: 100)
    let dropoff = try f.send(.droppedOff(DriverID(1), RequestID(1), at: point(4500, 500)), at: 700)
    return (pickup, dropoff)
}

private func fare(_ effects: [Effect]) -> Double {
    effects.reduce(0) { sum, effect in if case .fareCharged(_, _, let amount) = effect { sum + amount } else { sum } }
}

@Test func theWholeFareIsChargedAtDropOff() throws {
    // D13: base + per km + per minute
    let f = try Fixture(rules: rules(chargeAt: .dropoff))
    let (pickup, dropoff) = try completedRide(f)
    #expect(fare(pickup) == 0)
    #expect(abs(fare(dropoff) - 10.4) < 1e-9)
    #expect(dropoff.last == .rideCompleted(RequestID(1), DriverID(1)))
    #expect(f.status(request: 1) == .completed)
    #expect(f.status(1) == .unavailable)
    #expect(f.core.position(of: DriverID(1)) == point(4500, 500))
}

@Test func theMinimumFareIsChargedAtPickupAndTheRestAtDropOff() throws {
    // D13
    let f = try Fixture(rules: rules(chargeAt: .pickup))
    let (pickup, dropoff) = try completedRide(f)
    #expect(pickup == [.fareCharged(RequestID(1), DriverID(1), amount: 5)])
    #expect(abs(fare(dropoff) - 5.4) < 1e-9)
}

@Test func theFareIsNeverBelowTheMinimum() throws {
    // D13: a 100 m ride of 10 s costs the minimum, charged once
    for chargeAt in FareCharging.allCases {
        let f = try Fixture(rules: rules(chargeAt: chargeAt))
        try f.addDrivers(at: [point(100, 100)])
        try f.request(1, from: point(500, 500), to: point(600, 500))
        try f.send(.accept(DriverID(1), RequestID(1)))
        let pickup = try f.send(.pickedUp(DriverID(1), RequestID(1)), at: 100)
        let dropoff = try f.send(.droppedOff(DriverID(1), RequestID(1), at: point(600, 500)), at: 110)
        #expect(fare(pickup) + fare(dropoff) == 5, "\(chargeAt)")
    }
}

@Test func eachSideMayReportTheOtherOnceAfterTheRide() throws {
    // D13
    let f = try Fixture()
    _ = try completedRide(f)
    #expect(try f.send(.report(.customer(CustomerID(1)), RequestID(1))) == [.reportRecorded(RequestID(1), count: 1)])
    #expect(try f.send(.report(.driver(DriverID(1)), RequestID(1))) == [.reportRecorded(RequestID(1), count: 1)])
    #expect(f.core.badEvaluations(of: DriverID(1)) == 1)
    #expect(f.core.badEvaluations(of: CustomerID(1)) == 1)
    f.expectRefused(.report(.customer(CustomerID(1)), RequestID(1)),
                    with: .reportNotAllowed(RequestID(1), reason: "already reported by the customer"))
    f.expectRefused(.report(.driver(DriverID(1)), RequestID(1)),
                    with: .reportNotAllowed(RequestID(1), reason: "already reported by the driver"))
}

@Test func aReportBeforeTheRideEndedIsRefused() throws {
    // D13
    let f = try Fixture()
    _ = try acceptedRide(f)
    f.expectRefused(.report(.customer(CustomerID(1)), RequestID(1)),
                    with: .reportNotAllowed(RequestID(1), reason: "the ride has not ended"))
}

@Test func onlyThePartiesOfARideMayReport() throws {
    // D13
    let f = try Fixture()
    _ = try completedRide(f)
    f.expectRefused(.report(.customer(CustomerID(2)), RequestID(1)), with: .notAParty(RequestID(1)))
    f.expectRefused(.report(.driver(DriverID(2)), RequestID(1)), with: .notAParty(RequestID(1)))
}

@Test func aWithdrawnTaxiThatMovedZoneJoinsTheTailOfItsNewZone() throws {
    // D2, D15: its old place belonged to another zone's queue
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(2100, 100)])
    try f.request(1, from: point(500, 500))
    try f.send(.updatePosition(DriverID(1), point(2500, 500)))
    try f.send(.cancel(RequestID(1), by: CustomerID(1)))
    #expect(f.queue(1) == [DriverID(2), DriverID(1)])
    #expect(f.queue(0).isEmpty)
}
