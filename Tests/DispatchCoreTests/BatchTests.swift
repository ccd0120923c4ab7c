import Testing
@testable import DispatchCore

private func batch(window: Double = 30, candidates: Int = 8) throws -> Fixture {
    try Fixture(policy: try BatchAssignmentPolicy(window: window, candidatesPerRequest: candidates))
}

/// Every request's `waitingForTaxi` effects.
private func waitingNotices(_ effects: [Effect]) -> [Effect] {
    effects.filter { if case .waitingForTaxi = $0 { true } else { false } }
}

// MARK: - Requests the sparse matching leaves unmatched

@Test func batchGivesRequestsTheMatchingLeftUnmatchedTheNextBestFreeTaxi() throws {
    // 20 requests at one hotspot, 8 candidates each, 100 idle taxis on a 10 × 10 grid: every
    // request shares the same 8 nearest taxis, so the matching serves 8; the other 12 must get
    // the next-nearest free taxis, not "no taxi".
    let f = try batch()
    try f.addDrivers(at: (0..<100).map { point(400 + 800 * Double($0 % 10), 400 + 800 * Double($0 / 10)) })
    var opened: [Effect] = []
    for id in 1...20 { opened += try f.request(id, from: point(4000 + Double(id), 4000)) }
    let round = try f.fire(.batchEpoch, from: opened)
    #expect(round.offers.count == 20, "\(round)")
    #expect(Set(round.offers.map(\.driver)).count == 20)
    #expect(!round.contains { if case .noTaxiAvailable = $0 { true } else { false } })
    // The 24 taxis within 2,400 m (Manhattan) of the hotspot are the nearest; the 20 come from them.
    for offer in round.offers {
        let taxi = try #require(f.core.position(of: offer.driver))
        #expect(taxi.manhattanDistance(to: point(4000, 4000)) <= 2420, "\(offer.driver) at \(taxi)")
    }
    #expect(f.core.availableTaxiCount == 80)
}

@Test func batchRefusesOnlyWhenNoEligibleTaxiIsLeft() throws {
    // Three requests, two taxis: the third is told "no taxi" (D7, zero patience).
    let f = try batch(candidates: 1)
    try f.addDrivers(at: [point(100, 100), point(7900, 7900)])
    var opened: [Effect] = []
    for id in 1...3 { opened += try f.request(id, from: point(200 + Double(id), 200)) }
    let round = try f.fire(.batchEpoch, from: opened)
    #expect(Set(round.offers.map(\.driver)) == [DriverID(1), DriverID(2)])
    #expect(round.filter { if case .noTaxiAvailable = $0 { true } else { false } }.count == 1)
}

// MARK: - D7 under batch

@Test func underBatchAZeroPatienceRequestWithNoTaxiIsAnsweredAtOnce() throws {
    // D7: "no taxi available" at once, not at the end of the window
    let f = try batch()
    try f.addDriver(1, at: point(100, 100), available: false)
    #expect(try f.request(1, from: point(500, 500)) == [.noTaxiAvailable(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .rejected)
    #expect(f.core.batchEpochDue == nil)
}

@Test func underBatchAZeroPatienceRequestWithAFreeTaxiWaitsForTheWindow() throws {
    // The batch trade-off: a taxi is free, so the customer is matched at the window's end.
    let f = try batch()
    try f.addDrivers(at: [point(100, 100)])
    let opened = try f.request(1, from: point(500, 500), at: 5)
    #expect(opened.wake(.batchEpoch)?.at == 35)
    #expect(try f.fire(.batchEpoch, from: opened).offers.map(\.driver) == [DriverID(1)])
}

@Test func underBatchACustomerWhosePatienceEndsInsideTheWindowIsConsideredBeforeLeaving() throws {
    // D7: patience 10 s < the 30 s window; at the deadline the customer gets the nearest free taxi.
    let f = try batch()
    try f.addDrivers(at: [point(100, 100)])
    let opened = try f.request(1, from: point(500, 500), patience: 10)
    let lastChance = try f.fire(.patience, from: opened)
    #expect(lastChance.offers.map(\.driver) == [DriverID(1)])
    #expect(f.status(request: 1) == .offered(DriverID(1)))
    #expect(try f.fire(.batchEpoch, from: opened).offers.isEmpty)  // the window has nobody left
}

@Test func underBatchACustomerWithoutATaxiAtTheDeadlineExpires() throws {
    let f = try batch()
    let opened = try f.request(1, from: point(500, 500), patience: 10)
    #expect(try f.fire(.patience, from: opened) == [.requestExpired(RequestID(1), CustomerID(1))])
}

@Test func underBatchWaitingForTaxiIsSentOncePerWaitNotEveryWindow() throws {
    // D7: the customer hears "waiting until 300" once, not again at every window's end
    let f = try batch()
    let opened = try f.request(1, from: point(500, 500), patience: 300)
    let first = try f.fire(.batchEpoch, from: opened)
    #expect(waitingNotices(first) == [.waitingForTaxi(RequestID(1), until: 300)])
    let second = try f.fire(.batchEpoch, from: first)
    #expect(f.status(request: 1) == .pending)
    #expect(waitingNotices(second).isEmpty, "\(second)")
    #expect(second.wake(.batchEpoch)?.at == 90)
}

@Test func underBatchAPatientCustomerWithoutATaxiAtTheWindowsEndExpiresRatherThanBeingRejected() throws {
    // D7: patience 30 s ends as the window closes; the customer waited, so the request expired
    let f = try batch()
    let opened = try f.request(1, from: point(500, 500), patience: 30)
    #expect(try f.fire(.batchEpoch, from: opened) == [.requestExpired(RequestID(1), CustomerID(1))])
    #expect(f.status(request: 1) == .expired)
}
