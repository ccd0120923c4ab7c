import Testing
@testable import DispatchCore

/// Reservation 1 of customer 1 from (500, 500), meeting at `meeting`, made at `time`.
@discardableResult
private func reserve(_ f: Fixture, meeting: Double = 10_000, at time: Double = 0, id: Int = 1) throws -> [Effect] {
    try f.send(.reserveRide(RequestID(id), customer: CustomerID(1), origin: point(500, 500),
                            destination: point(7000, 7000), meetingTime: meeting), at: time)
}

@Test func aReservationTwoHoursAheadIsConfirmedWithAnAllocationTenMinutesBefore() throws {
    // D11
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    let effects = try reserve(f, meeting: 7300, at: 100)
    #expect(effects == [.reservationConfirmed(RequestID(1), allocationAt: 6700),
                        .wake(at: 6700, TimerID(kind: .reservationAllocation, request: RequestID(1), generation: 0)),
                        .wake(at: 7300, TimerID(kind: .patience, request: RequestID(1), generation: 0))])
    #expect(f.status(request: 1) == .scheduled)
    #expect(f.queue(0) == [DriverID(1)])  // no taxi is taken before the allocation
}

@Test func aReservationLessThanTwoHoursAheadIsRefused() throws {
    // D11
    let f = try Fixture()
    f.time = 100
    f.expectRefused(.reserveRide(RequestID(1), customer: CustomerID(1), origin: point(500, 500),
                                 destination: point(7000, 7000), meetingTime: 7299),
                    with: .reservationTooSoon(meetingTime: 7299, earliestAllowed: 7300))
}

@Test func theAllocationOffersTheReservationToTheHeadOfTheOriginQueue() throws {
    // D11, D3
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100), point(200, 200)])
    let allocated = try f.fire(.reservationAllocation, from: try reserve(f))
    #expect(allocated.offers.map(\.driver) == [DriverID(1)])
    #expect(allocated.offers.first?.expiresAt == 9460)
}

@Test func theAllocationFollowsTheClosestTaxiRuleWhenTheOriginZoneIsEmpty() throws {
    // D11, D6
    let f = try Fixture()
    try f.addDrivers(at: [point(7000, 7000), point(2500, 500)])
    let allocated = try f.fire(.reservationAllocation, from: try reserve(f))
    #expect(allocated.offers.map(\.driver) == [DriverID(2)])
}

@Test func aReservationWithNoTaxiAtAllocationWaitsUntilTheMeetingTime() throws {
    // D11, D7
    let f = try Fixture()
    let confirmed = try reserve(f)
    #expect(try f.fire(.reservationAllocation, from: confirmed) == [.waitingForTaxi(RequestID(1), until: 10_000)])
    #expect(try f.fire(.patience, from: confirmed) == [.requestExpired(RequestID(1), CustomerID(1))])
}

@Test func aReservationCanBeCancelledUntilTenMinutesBefore() throws {
    // D11
    let f = try Fixture()
    try reserve(f)
    #expect(try f.send(.cancel(RequestID(1), by: CustomerID(1)), at: 9400) == [.requestCancelled(RequestID(1))])
}

@Test func aReservationCannotBeCancelledInsideTheLastTenMinutes() throws {
    // D11
    let f = try Fixture()
    try reserve(f)
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)), at: 9401,
                    with: .cancellationWindowClosed(RequestID(1), closedAt: 9400))
}

@Test func theCancellationCutOffIsAPolicyOption() throws {
    // D11: myTaxiService closes cancellation 2 hours before
    let f = try Fixture(rules: rules(cancelCutoff: 7200))
    try reserve(f)
    try reserve(f, at: 0, id: 2)
    #expect(try f.send(.cancel(RequestID(2), by: CustomerID(1)), at: 2800) == [.requestCancelled(RequestID(2))])
    f.expectRefused(.cancel(RequestID(1), by: CustomerID(1)), at: 2801,
                    with: .cancellationWindowClosed(RequestID(1), closedAt: 2800))
}

@Test func aCancelledReservationIsNotAllocated() throws {
    // D11, D10: its timers are stale
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    let confirmed = try reserve(f)
    try f.send(.cancel(RequestID(1), by: CustomerID(1)), at: 50)
    #expect(try f.fire(.reservationAllocation, from: confirmed).isEmpty)
    #expect(f.status(1) == .available(ZoneID(0)))
}

@Test func aReservationIsNotAnOpenImmediateRequest() throws {
    // D11, D12: the customer may still request a ride now
    let f = try Fixture()
    try reserve(f)
    try f.request(2, customer: 1, from: point(500, 500), patience: 100)
    #expect(f.status(request: 2) == .pending)
}

@Test func aReservedTaxiHasTheMaximumAllowedDelayAfterTheMeetingTime() throws {
    // D11, D9: the customer is due at the meeting time, so the MAD counts from it:
    // 10,000 + 1.5 × 80 s (800 m at 10 m/s) + 120 s
    let f = try Fixture()
    try f.addDrivers(at: [point(100, 100)])
    try f.fire(.reservationAllocation, from: try reserve(f))
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 9410)
    #expect(accepted.wake(.maximumAllowedDelay)?.at == 10_240)
}

@Test func aReservationAcceptedAfterTheMeetingTimeHasTheMaximumAllowedDelayFromTheAcceptance() throws {
    // D11, D9: no taxi at the allocation; one turns available just before the meeting time
    let f = try Fixture()
    try f.addDriver(1, at: point(100, 100), available: false)
    try f.fire(.reservationAllocation, from: try reserve(f))
    try f.send(.setAvailable(DriverID(1), true), at: 9990)
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 10_030)
    let due = try #require(accepted.wake(.maximumAllowedDelay)?.at)
    #expect(due == 10_270)
}

/// Traffic: 10 m/s, but 5 m/s from 02:00 to 03:00.
private let slowAtTwo: [Double] = (0..<24).map { $0 == 2 ? 5 : 10 }

@Test func theMaximumAllowedDelayUsesTheSpeedOfTheHour() throws {
    // D9 "computed from distance and traffic": 800 m at 5 m/s is a 160 s ETA at 02:00
    let f = try Fixture(speedByHour: slowAtTwo)
    try f.addDrivers(at: [point(100, 100)])
    try f.request(1, customer: 7, from: point(500, 500), at: 7300)
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 7310)
    #expect(accepted.first == .customerNotified(RequestID(1), CustomerID(7), DriverID(1), eta: 160))
    #expect(accepted.wake(.maximumAllowedDelay)?.at == 7310 + 1.5 * 160 + 120)
}

@Test func aReservationsMaximumAllowedDelayUsesTheSpeedOfTheHourAndCountsFromTheMeeting() throws {
    // D11, D9: meeting at 02:30, allocation at 02:20 in slow traffic: 9,000 + 1.5 × 160 s + 120 s
    let f = try Fixture(speedByHour: slowAtTwo)
    try f.addDrivers(at: [point(100, 100)])
    try f.fire(.reservationAllocation, from: try reserve(f, meeting: 9000))
    let accepted = try f.send(.accept(DriverID(1), RequestID(1)), at: 8410)
    #expect(accepted.wake(.maximumAllowedDelay)?.at == 9000 + 1.5 * 160 + 120)
}
