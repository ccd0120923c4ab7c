import Testing
@testable import DispatchCore

// MARK: - D7: patience that runs out while an offer is out

@Test func aCustomerWhosePatienceRanOutDuringAnOfferGetsNoFurtherOffer() throws {
    // D7, D5: taxi 2 is free, but the customer (patience 20 s) has gone by the decline at 40
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    let offered = try f.request(1, from: point(500, 500), patience: 20, at: 10)
    #expect(try f.fire(.patience, from: offered).isEmpty)  // the customer waits for the driver's answer
    let declined = try f.send(.decline(DriverID(1), RequestID(1)), at: 40)
    #expect(declined == [.requestExpired(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .expired)
    #expect(f.queue(0) == [DriverID(2)])
}

@Test func anOfferLapsingAfterThePatienceDeadlineEndsTheRequestAsExpired() throws {
    // D7, D4: the silent taxi's minute ends after the customer's patience
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    let offered = try f.request(1, from: point(500, 500), patience: 20)
    try f.fire(.patience, from: offered)
    let lapsed = try f.fire(.offerTimeout, from: offered)
    #expect(lapsed.offers.isEmpty)
    #expect(lapsed.contains(.requestExpired(RequestID(1), CustomerID(1))))
    #expect(f.status(request: 1) == .expired)
}

@Test func aCustomerWhosePatienceHasNotRunOutGetsTheNextTaxi() throws {
    // D5: a decline before the deadline passes the request on
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500), patience: 300)
    let declined = try f.send(.decline(DriverID(1), RequestID(1)), at: 40)
    #expect(declined.offers.map(\.driver) == [DriverID(2)])
}

@Test func aZeroPatienceCustomerFollowsTheOfferChainUntilNoTaxiIsLeft() throws {
    // D4, D5, D7: zero patience means "no taxi" at once when none is free, not "one offer only"
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500))
    #expect(try f.send(.decline(DriverID(1), RequestID(1)), at: 30).offers.map(\.driver) == [DriverID(2)])
    #expect(try f.send(.decline(DriverID(2), RequestID(1)), at: 50) == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .rejected)
}

@Test func waitingForTaxiIsSentOncePerWaitNotAfterEveryDecline() throws {
    // D7: the customer already knows they wait until 300
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    #expect(try f.request(1, from: point(500, 500), patience: 300).contains(.waitingForTaxi(RequestID(1), until: 300)))
    #expect(try f.send(.setAvailable(DriverID(1), true), at: 10).offers.map(\.request) == [RequestID(1)])
    let declined = try f.send(.decline(DriverID(1), RequestID(1)), at: 20)
    #expect(declined.isEmpty, "\(declined)")
    #expect(f.status(request: 1) == .pending)
}

@Test func aRevokedCustomerIsToldTheNewDeadline() throws {
    // D9, D7: the late taxi's customer waits madSlack more, and is told so
    let f = try Fixture()
    try f.addDriver(1, at: point(7900, 7900))
    let offered = try f.request(1, from: point(500, 500), patience: 300)
    #expect(!offered.contains { if case .waitingForTaxi = $0 { true } else { false } })
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 10)
    let revoked = try f.fire(.maximumAllowedDelay, from: accepted)
    #expect(revoked.contains(.waitingForTaxi(RequestID(1), until: f.time + 120)))
    // The first patience timer (300) belongs to the old deadline.
    let (_, oldTimer) = try #require(offered.wake(.patience))
    #expect(try f.send(.timerFired(oldTimer), at: f.time + 1).isEmpty)
    #expect(try f.fire(.patience, from: revoked) == [.requestExpired(RequestID(1), CustomerID(1))])
}

@Test func anAcceptanceEndsPatienceAndARevocationArmsANewTimerForTheSameDeadline() throws {
    // D7, D9: patience ends when a taxi accepts; a revocation that leaves the deadline as it was
    // (300 is later than now + madSlack) arms a new timer for it, so the customer still leaves at 300,
    // and the first timer, which a host may have dropped, can never act again.
    let f = try Fixture()
    try f.addDriver(1, at: point(600, 600))  // 200 m, 20 s away: D9's deadline is 10 + 1.5 × 20 + 120 = 160
    let offered = try f.request(1, from: point(500, 500), patience: 300)
    let (_, patience) = try #require(offered.wake(.patience))
    #expect(f.core.timerCanAct(patience))
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 10)
    #expect(!f.core.timerCanAct(patience), "the acceptance ends patience: a host may drop the timer")
    let (due, delay) = try #require(accepted.wake(.maximumAllowedDelay))
    #expect(due < 180, "the revocation must come before now + madSlack reaches 300")
    let revoked = try f.send(.timerFired(delay), at: due)
    let (at, armed) = try #require(revoked.wake(.patience))
    #expect(at == 300 && armed != patience && f.core.timerCanAct(armed))
    #expect(!f.core.timerCanAct(patience), "the first timer stays unable to act")
    #expect(try f.send(.timerFired(patience), at: 300).isEmpty)
    #expect(try f.send(.timerFired(armed), at: 300) == [.requestExpired(RequestID(1), CustomerID(1))])
}

@Test func aRevokedCustomerWithInfinitePatienceGetsNoPatienceTimer() throws {
    // D7, D9: an infinitely patient customer never expires, so a revocation asks for no wake-up
    // (a wake at infinity would stop a host's clock there).
    let f = try Fixture()
    try f.addDriver(1, at: point(600, 600))
    _ = try f.request(1, from: point(500, 500), patience: .infinity)
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 10)
    let revoked = try f.fire(.maximumAllowedDelay, from: accepted)
    #expect(revoked.contains(.assignmentRevoked(DriverID(1), RequestID(1))))
    #expect(revoked.allSatisfy { if case .wake(let at, _) = $0 { at.isFinite } else { true } }, "\(revoked)")
    #expect(revoked.wake(.patience) == nil)
}

// MARK: - D10 with the zone rule

@Test func aTaxiFreedByACancellationServesItsOwnZoneFirst() throws {
    // D10, D3: the withdrawn taxi serves the waiting customer of its zone, not the older one across town
    let f = try Fixture()
    try f.addDrivers(at: [point(500, 500)])
    try f.request(1, from: point(600, 600))                              // offered to driver 1
    try f.request(2, from: point(7400, 7400), patience: 600, at: 10)     // older, far corner
    try f.request(3, from: point(700, 700), patience: 600, at: 20)       // newer, driver 1's zone
    let cancelled = try f.send(.cancel(RequestID(1), by: CustomerID(1)), at: 30)
    #expect(cancelled.offers.map(\.request) == [RequestID(3)])
}
