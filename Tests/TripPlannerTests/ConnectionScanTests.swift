import Testing
@testable import TripPlanner

/// A, B, C on a line and D north of C; T1 A→B→C 08:00–08:10, T2 C→D 08:12–08:15, T3 A→D 08:05–08:30.
private func tinyNetwork(secondLeaves: String = "08:12:00") throws -> TransitNetwork {
    try network(handFeed(
        stops: [("A", point(0, 0)), ("B", point(1000, 0)), ("C", point(2000, 0)), ("D", point(2000, 1000))],
        trips: [("T1", [("A", "08:00:00"), ("B", "08:05:00"), ("C", "08:10:00")]),
                ("T2", [("C", secondLeaves), ("D", "08:15:00")]),
                ("T3", [("A", "08:05:00"), ("D", "08:30:00")])]))
}

private let noWalkBeyond100m = TransitAccess(maximumWalk: 100, walkSpeed: 1.4)

/// The earliest arrival changes at C rather than taking the slower direct trip.
@Test func connectionScanFindsTheEarliestArrivalWithATransfer() throws {
    let router = ConnectionScanRouter(network: try tinyNetwork())
    let legs = try #require(router.earliestArrival(from: point(0, 0), to: point(2000, 1000), departingAt: at(7.9),
                                                   access: noWalkBeyond100m))
    #expect(legs.map(\.means) == [.transit, .transit])
    #expect(legs.last?.arrival == at(8.25))
}

/// A change shorter than the transfer time (60 s) is not made: the direct trip wins.
@Test func connectionScanRespectsTheTransferTime() throws {
    let router = ConnectionScanRouter(network: try tinyNetwork(secondLeaves: "08:10:30"))
    let legs = try #require(router.earliestArrival(from: point(0, 0), to: point(2000, 1000), departingAt: at(7.9),
                                                   access: noWalkBeyond100m))
    #expect(legs.count == 1 && legs[0].arrival == at(8.5))
}

/// The latest departure that still arrives by 08:20 is T1 at 08:00.
@Test func connectionScanFindsTheLatestDepartureArrivingInTime() throws {
    let router = ConnectionScanRouter(network: try tinyNetwork())
    let legs = try #require(router.latestDeparture(from: point(0, 0), to: point(2000, 1000), arrivingBy: at(8 + 20.0 / 60),
                                                   notBefore: at(7), access: noWalkBeyond100m))
    #expect(legs.first?.departure == at(8) && legs.last?.arrival == at(8.25))
}

/// Stops beyond the maximum walking distance are not used.
@Test func connectionScanWalksNoFurtherThanAllowed() throws {
    let router = ConnectionScanRouter(network: try tinyNetwork())
    #expect(router.earliestArrival(from: point(0, 500), to: point(2000, 1000), departingAt: at(7.9),
                                   access: noWalkBeyond100m) == nil)
}
