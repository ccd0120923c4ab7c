import Testing
@testable import DispatchCore

// MARK: - Due times on the record: early timers change nothing (a host's real timers may fire early)

/// Checks that firing `timer` at `time`, before its due time, changes nothing but the clock and
/// asks again for the due time.
private func expectEarly(_ f: Fixture, _ timer: TimerID, at time: Double, due: Double,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    var before = f.snapshot()
    let effects = try f.send(.timerFired(timer), at: time, sourceLocation: sourceLocation)
    #expect(effects == [.wake(at: due, timer)], sourceLocation: sourceLocation)
    before.state.now = time
    #expect(f.snapshot() == before, "the early \(timer) changed the core", sourceLocation: sourceLocation)
}

@Test func anEarlyOfferTimeoutChangesNothingAndAsksAgainForItsDueTime() throws {
    // D4: the offer made at 10 lapses at 70, not at 40
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    let offered = try f.request(1, from: point(500, 500), at: 10)
    let (due, timer) = try #require(offered.wake(.offerTimeout))
    try expectEarly(f, timer, at: 40, due: due)
    #expect(f.status(request: 1) == .offered(DriverID(1)))
    #expect(try f.send(.timerFired(timer), at: due).offers.map(\.driver) == [DriverID(2)])
}

@Test func anEarlyDelayTimerDoesNotRevokeTheTaxi() throws {
    // D9: the taxi accepted at 30 has until 270
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500))
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 30)
    let (due, timer) = try #require(accepted.wake(.maximumAllowedDelay))
    #expect(due == 270)
    try expectEarly(f, timer, at: 100, due: due)
    #expect(f.status(request: 1) == .accepted(DriverID(1)))
    #expect(f.core.statistics.madReassignments == 0)
}

@Test func anEarlyAllocationTimerDoesNotAllocateTheReservation() throws {
    // D11: the allocation is 10 minutes before the meeting, not when a timer says so
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    let confirmed = try f.send(.reserveRide(RequestID(1), customer: CustomerID(1), origin: point(500, 500),
                                            destination: point(7000, 7000), meetingTime: 10_000))
    let (due, timer) = try #require(confirmed.wake(.reservationAllocation))
    try expectEarly(f, timer, at: 5000, due: due)
    #expect(f.status(request: 1) == .scheduled)
    #expect(f.queue(0) == [DriverID(1)])
}

@Test func anEarlyPatienceTimerDoesNotExpireTheCustomer() throws {
    // D7: the customer waits until 300
    let f = try Fixture()
    let waiting = try f.request(1, from: point(500, 500), patience: 300)
    let (due, timer) = try #require(waiting.wake(.patience))
    try expectEarly(f, timer, at: 100, due: due)
    #expect(f.status(request: 1) == .pending)
}

@Test func anEarlyBatchEpochDoesNotCloseTheWindow() throws {
    let f = try Fixture(policy: try BatchAssignmentPolicy(window: 30, candidatesPerRequest: 8))
    try f.addDrivers(at: [point(100, 100)])
    let opened = try f.request(1, from: point(500, 500))
    let (due, timer) = try #require(opened.wake(.batchEpoch))
    try expectEarly(f, timer, at: 10, due: due)
    #expect(f.status(request: 1) == .pending)
}

// MARK: - Late answers

@Test func anAcceptAfterTheOfferLapsedIsRefusedEvenBeforeItsTimerFired() throws {
    // D4: the offer made at 10 lapsed at 70; the host's timer has not fired yet
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    try f.request(1, from: point(500, 500), at: 10)
    f.expectRefused(.accept(DriverID(1), RequestID(1)), at: 70.5,
                    with: .offerExpired(RequestID(1), DriverID(1), expiredAt: 70))
    f.expectRefused(.decline(DriverID(1), RequestID(1)), at: 71,
                    with: .offerExpired(RequestID(1), DriverID(1), expiredAt: 70))
}

@Test func anAcceptAtTheExpiryInstantIsHonoured() throws {
    // D4: the driver has the whole minute
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.request(1, from: point(500, 500), at: 10)
    try f.send(.accept(DriverID(1), RequestID(1)), at: 70)
    #expect(f.status(request: 1) == .accepted(DriverID(1)))
}
