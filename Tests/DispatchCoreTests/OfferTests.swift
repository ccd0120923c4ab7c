import Testing
@testable import DispatchCore

// MARK: - D3 Offer

@Test func aRequestIsOfferedToTheHeadOfTheOriginZoneQueue() throws {
    // D3: driver 3 in the next zone is nearer, but the origin zone's head gets it
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(2050, 1000)])
    let effects = try f.request(1, from: point(1950, 1000), at: 10)
    #expect(effects == [.offer(DriverID(1), RequestID(1), expiresAt: 70),
                        .wake(at: 70, TimerID(kind: .offerTimeout, request: RequestID(1), generation: 1))])
    #expect(f.status(1) == .offered(RequestID(1)))
    #expect(f.status(request: 1) == .offered(DriverID(1)))
    #expect(f.queue(0) == [DriverID(2)])
    #expect(f.core.statistics.offersSent == 1)
}

// MARK: - D4 Timeout

@Test func aLapsedOfferPassesToTheNextTaxiAndTheSilentOneGoesToTheTail() throws {
    // D4 (TAXInseconds: requeue)
    let f = try Fixture(rules: rules(onTimeout: .requeue))
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    let offered = try f.request(1, from: point(500, 500))
    let effects = try f.fire(.offerTimeout, from: offered)
    #expect(f.time == 60)
    #expect(effects.contains(.offerWithdrawn(DriverID(1), RequestID(1))))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    #expect(effects.offers.first?.expiresAt == 120)
    #expect(f.queue(0) == [DriverID(3), DriverID(1)])
    #expect(f.status(1) == .available(ZoneID(0)))
    #expect(f.core.statistics.offersTimedOut == 1)
}

@Test func aLapsedOfferDisconnectsTheSilentTaxiWhenConfigured() throws {
    // D4 (option: considered disconnected)
    let f = try Fixture(rules: rules(onTimeout: .disconnect))
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    let effects = try f.fire(.offerTimeout, from: try f.request(1, from: point(500, 500)))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    #expect(f.status(1) == .unavailable)
    #expect(f.queue(0) == [DriverID(3)])
}

@Test func theSilentTaxiIsNotOfferedTheSameRequestAgain() throws {
    // D4: with only the silent taxi left, the customer hears "no taxi" (D7)
    let f = try Fixture(rules: rules(onTimeout: .requeue))
    try f.addDrivers(at: [point(100, 100)])
    let effects = try f.fire(.offerTimeout, from: try f.request(1, from: point(500, 500)))
    #expect(effects.offers.isEmpty)
    #expect(effects.contains(.noTaxiAvailable(RequestID(1), CustomerID(1))))
    #expect(f.queue(0) == [DriverID(1)])
}

@Test func anOfferTimerAfterAcceptanceIsIgnored() throws {
    // D4: stale timers are harmless
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    let offered = try f.request(1, from: point(500, 500))
    try f.send(.accept(DriverID(1), RequestID(1)), at: 20)
    let before = f.snapshot()
    #expect(try f.fire(.offerTimeout, from: offered).isEmpty)
    var after = f.snapshot()
    after.state.now = before.state.now
    #expect(after == before)
}

@Test func anOfferTimerOfAnEarlierOfferIsIgnored() throws {
    // D4: the first timeout's timer fired twice only moves the offer once
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    let offered = try f.request(1, from: point(500, 500))
    try f.fire(.offerTimeout, from: offered)
    #expect(try f.fire(.offerTimeout, from: offered).isEmpty)
    #expect(f.status(request: 1) == .offered(DriverID(2)))
}

// MARK: - D5 Decline

@Test func aDeclinerBecomesNotAvailableAndTheRequestPassesOn() throws {
    // D5 (TAXInseconds)
    let f = try Fixture(rules: rules(onDecline: .unavailable))
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    try f.request(1, from: point(500, 500))
    let effects = try f.send(.decline(DriverID(1), RequestID(1)))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    #expect(f.status(1) == .unavailable)
    #expect(f.queue(0) == [DriverID(3)])
    #expect(f.core.statistics.offersDeclined == 1)
}

@Test func aDeclinerGoesToTheBottomOfTheQueueWhenConfigured() throws {
    // D5 (myTaxiService)
    let f = try Fixture(rules: rules(onDecline: .requeue))
    try f.addDrivers(at: [point(100, 100), point(200, 200), point(300, 300)])
    try f.request(1, from: point(500, 500))
    let effects = try f.send(.decline(DriverID(1), RequestID(1)))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    #expect(f.queue(0) == [DriverID(3), DriverID(1)])
}

@Test func aDeclinerIsNotOfferedTheSameRequestAgain() throws {
    // D5
    let f = try Fixture(rules: rules(onDecline: .requeue))
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500))
    try f.send(.decline(DriverID(1), RequestID(1)))
    let effects = try f.send(.decline(DriverID(2), RequestID(1)))
    #expect(effects == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    #expect(f.queue(0) == [DriverID(1), DriverID(2)])
}

// MARK: - D6 Closest available taxi

@Test func anEmptyOriginZoneSendsTheRequestToTheSmallestManhattanETA() throws {
    // D6: A is 2000 m (Manhattan) away, B 2600 m; C far. B queued first.
    let f = try Fixture(metric: .manhattan)
    try f.addDrivers(at: [point(2300, 2300), point(3000, 1000), point(7000, 7000)])
    let effects = try f.request(1, from: point(1000, 1000))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
    let accepted = try f.send(.accept(DriverID(2), RequestID(1)))
    #expect(accepted.contains(.customerNotified(RequestID(1), CustomerID(1), DriverID(2), eta: 200)))
}

@Test func anEmptyOriginZoneSendsTheRequestToTheSmallestEuclideanETA() throws {
    // D6: with straight lines B (1838 m) beats A (2000 m)
    let f = try Fixture(metric: .euclidean)
    try f.addDrivers(at: [point(3000, 1000), point(2300, 2300), point(7000, 7000)])
    let effects = try f.request(1, from: point(1000, 1000))
    #expect(effects.offers.map(\.driver) == [DriverID(2)])
}

@Test func theClosestTaxiSearchSkipsTaxisThatAlreadyDeclined() throws {
    // D6, D5: the next closest gets the request
    let f = try Fixture()
    try f.addDrivers(at: [point(3000, 1000), point(4000, 1000), point(2300, 2300)])
    try f.request(1, from: point(1000, 1000))
    let effects = try f.send(.decline(DriverID(1), RequestID(1)))
    #expect(effects.offers.map(\.driver) == [DriverID(3)])
}

// MARK: - D7 No taxi

@Test func noTaxiAnywhereIsAnsweredAtOnceWithZeroPatience() throws {
    // D7
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    let effects = try f.request(1, from: point(500, 500), patience: 0)
    #expect(effects == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .rejected)
}

@Test func aRequestTurnedDownWithNoTaxiAvailableEndsAsOneThePolicyTurnedDown() throws {
    // D7, D12: with zero patience and no taxi available the request ends at once, before it opens; one
    // turned down after its only taxi declined went through the policy. Both must end the same way.
    let direct = try Fixture(), throughPolicy = try Fixture()
    try direct.addDriver(1, at: point(100, 100), available: false)
    try throughPolicy.addDriver(1, at: point(100, 100))
    #expect(try direct.request(1, from: point(500, 500)) == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    #expect(try throughPolicy.request(1, from: point(500, 500)).offers.map(\.driver) == [DriverID(1)])
    #expect(try throughPolicy.send(.decline(DriverID(1), RequestID(1))) == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    for f in [direct, throughPolicy] {
        #expect(f.status(request: 1) == .rejected)
        #expect(f.core.requestCount == 1)
        f.expectRefused(.requestRide(RequestID(1), customer: CustomerID(9), origin: point(500, 500),
                                     destination: point(7000, 7000), patience: 0), with: .duplicateRequest(RequestID(1)))
        f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)),
                        with: .illegalRequestTransition(RequestID(1), state: .rejected, command: "be cancelled"))
        f.expectRefused(.report(.customer(CustomerID(1)), RequestID(1)),
                        with: .reportNotAllowed(RequestID(1), reason: "the ride has not ended"))
        // D12: the customer is free to ask again.
        #expect(try f.request(2, customer: 1, from: point(500, 500)) == [.noTaxiAvailable(RequestID(2), CustomerID(1))])
        try f.core.archive(RequestID(1))
        #expect(f.core.status(of: RequestID(1)) == nil)
        #expect(f.core.invariantViolations().isEmpty)
    }
    #expect(direct.core.allRequests.map(\.1) == throughPolicy.core.allRequests.map(\.1))
}

@Test func aPatientCustomerWaitsAndIsServedWhenATaxiTurnsAvailable() throws {
    // D7: patience > 0
    let f = try Fixture()
    try f.addDriver(1, at: point(5000, 5000), available: false)
    let effects = try f.request(1, from: point(500, 500), patience: 300, at: 10)
    #expect(effects == [.wake(at: 310, TimerID(kind: .patience, request: RequestID(1), generation: 0)),
                        .waitingForTaxi(RequestID(1), until: 310)])
    #expect(f.status(request: 1) == .pending)
    let served = try f.send(.setAvailable(DriverID(1), true), at: 100)
    #expect(served.offers.map(\.driver) == [DriverID(1)])
    #expect(f.status(request: 1) == .offered(DriverID(1)))
}

@Test func aFreedTaxiServesTheLongestWaitingCustomerOfItsOwnZoneFirst() throws {
    // D7 with D3's zone rule seen from the taxi: the older customer across town waits for a
    // taxi of their own zone (or any taxi left over) instead of pulling this one across the city.
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500), available: false)      // zone of (500, 500)
    try f.addDriver(2, at: point(7500, 7500), available: false)    // the far corner's zone
    try f.request(1, from: point(7400, 7400), patience: 600, at: 10)  // older, far corner
    try f.request(2, from: point(600, 600), patience: 600, at: 20)    // newer, near driver 1
    let near = try f.send(.setAvailable(DriverID(1), true), at: 30)
    #expect(near.offers.map(\.request) == [RequestID(2)])
    let far = try f.send(.setAvailable(DriverID(2), true), at: 40)
    #expect(far.offers.map(\.request) == [RequestID(1)])
}

@Test func aZoneWhoseWaitingListWasServedEmptyStillServesItsNextWaitingCustomerFirst() throws {
    // The same rule once the zone's list has been served empty: a customer who waits there later still gets
    // the zone's next freed taxi before an older customer across town.
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500), available: false)
    try f.addDriver(2, at: point(520, 520), available: false)           // the same zone
    try f.request(1, from: point(600, 600), patience: 6000, at: 10)
    let first = try f.send(.setAvailable(DriverID(1), true), at: 20)    // serves the zone's list empty
    #expect(first.offers.map(\.request) == [RequestID(1)])
    try f.request(2, from: point(7400, 7400), patience: 6000, at: 30)   // older, far corner
    try f.request(3, from: point(650, 650), patience: 6000, at: 40)     // newer, in the drained zone
    let second = try f.send(.setAvailable(DriverID(2), true), at: 50)
    #expect(second.offers.map(\.request) == [RequestID(3)])
    #expect(f.core.invariantViolations().isEmpty)
}

@Test func aFreedTaxiServesTheOldestCustomerAnywhereWhenItsZoneHasNone() throws {
    // D7, D6: with no customer waiting in its zone, the taxi goes to the longest-waiting one.
    let f = try Fixture()
    try f.addDriver(1, at: point(500, 500), available: false)
    try f.request(1, from: point(7400, 7400), patience: 600, at: 10)
    try f.request(2, from: point(4100, 4100), patience: 600, at: 20)
    let freed = try f.send(.setAvailable(DriverID(1), true), at: 30)
    #expect(freed.offers.map(\.request) == [RequestID(1)])
}

@Test func aWaitingCustomerExpiresWhenPatienceRunsOut() throws {
    // D7
    let f = try Fixture()
    let effects = try f.request(1, from: point(500, 500), patience: 300)
    let expired = try f.fire(.patience, from: effects)
    #expect(expired == [.requestExpired(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .expired)
}

@Test func patienceDoesNotRunOutWhileATaxiIsBeingAsked() throws {
    // D7: the customer waits for the driver's answer even past their deadline
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    let effects = try f.request(1, from: point(500, 500), patience: 20, at: 10)
    #expect(try f.fire(.patience, from: effects) == [])
    #expect(f.status(request: 1) == .offered(DriverID(1)))
    // The only taxi declines after the deadline: the customer's patience is over (D5, D7).
    let declined = try f.send(.decline(DriverID(1), RequestID(1)), at: 40)
    #expect(declined == [.requestExpired(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .expired)
}

@Test func taxisBusyWithOtherOffersCountAsNoTaxi() throws {
    // D7, D2: an offered taxi is not available
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.request(1, from: point(500, 500))
    #expect(try f.request(2, from: point(600, 600)) == [.noTaxiAvailable(RequestID(2), CustomerID(2))])
}

// MARK: - D8 Acceptance

@Test func acceptanceTellsTheCustomerTheTaxiCodeAndETA() throws {
    // D8: 800 m Manhattan at 10 m/s; MAD = 1.5 × 80 s + 120 s after acceptance
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, customer: 7, from: point(500, 500))
    let effects = try f.send(.accept(DriverID(1), RequestID(1)), at: 30)
    #expect(effects == [.customerNotified(RequestID(1), CustomerID(7), DriverID(1), eta: 80),
                        .wake(at: 270, TimerID(kind: .maximumAllowedDelay, request: RequestID(1), generation: 1))])
    #expect(f.core.taxiCode(of: DriverID(1)) == "T1")
    #expect(f.status(1) == .toPickup(RequestID(1)))
    #expect(f.status(request: 1) == .accepted(DriverID(1)))
    #expect(f.queue(0) == [DriverID(2)])
    #expect(f.core.availableTaxiCount == 1)
    #expect(f.core.statistics.offersAccepted == 1)
}

@Test func aRequestEveryAvailableTaxiDeclinedWaitsWithNoEligibleTaxi() throws {
    // Both taxis decline (D4) and turn available again: the request excludes both, so none is eligible and its
    // waiting is sound. The eligibility check counts exclusions before it searches; "as many available as
    // excluded" must still search.
    let f = try Fixture(policy: NearestIdlePolicy())
    try f.addDrivers(at: [point(100, 100), point(7900, 7900)])
    var effects = try f.request(1, from: point(200, 200), patience: 600)
    for _ in 0..<2 {
        let driver = try #require(effects.offers.first?.driver)
        effects = try f.send(.decline(driver, RequestID(1)))
    }
    #expect(effects.offers.isEmpty && f.status(request: 1) == .pending)
    for driver in 1...2 { #expect(try f.send(.setAvailable(DriverID(driver), true)).offers.isEmpty) }
    #expect(f.core.availableTaxiCount == 2 && f.status(request: 1) == .pending)
    #expect(f.core.invariantViolations().isEmpty, "\(f.core.invariantViolations())")
    // A third taxi is eligible: it is offered the request at once.
    try f.addDrivers(at: [point(4000, 4000)])
    #expect(f.status(request: 1) == .offered(DriverID(3)))
}
