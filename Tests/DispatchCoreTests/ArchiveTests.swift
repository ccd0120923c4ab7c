import Testing
@testable import DispatchCore

/// Archiving ended requests: the core forgets them, keeps every other decision, and holds a
/// bounded table under an endless stream of rides.
@Suite struct ArchiveTests {
    /// Serves one ride from request to drop-off with driver 1, who then turns available again.
    static func serveRide(_ f: Fixture, _ id: Int, customer: Int) throws {
        try f.send(.requestRide(RequestID(id), customer: CustomerID(customer), origin: point(500, 500),
                                destination: point(1500, 500), patience: 0))
        try f.send(.accept(DriverID(1), RequestID(id)))
        try f.send(.pickedUp(DriverID(1), RequestID(id)), at: f.time + 60)
        try f.send(.droppedOff(DriverID(1), RequestID(id), at: point(1500, 500)), at: f.time + 120)
        try f.send(.updatePosition(DriverID(1), point(100, 100)))
        try f.send(.setAvailable(DriverID(1), true))
    }

    @Test func archivedRequestIsForgottenLikeAnUnknownOne() throws {
        let f = try Fixture()
        try f.addDriver(1, at: point(100, 100))
        try Self.serveRide(f, 7, customer: 70)
        try f.core.archive(RequestID(7))
        #expect(f.core.status(of: RequestID(7)) == nil)
        #expect(f.core.allRequests.isEmpty && f.core.requestCount == 0)
        #expect(throws: DispatchError.unknownRequest(RequestID(7))) { try f.core.archive(RequestID(7)) }
        #expect(throws: DispatchError.unknownRequest(RequestID(7))) {
            try f.send(.report(.customer(CustomerID(70)), RequestID(7)))
        }
        #expect(f.core.invariantViolations().isEmpty)
    }

    @Test func onlyEndedRequestsCanBeArchived() throws {
        let f = try Fixture()
        try f.addDriver(1, at: point(100, 100))
        try f.send(.requestRide(RequestID(1), customer: CustomerID(1), origin: point(500, 500),
                                destination: point(1500, 500), patience: 0))
        #expect(throws: DispatchError.illegalRequestTransition(RequestID(1), state: .offered(DriverID(1)), command: "be archived")) {
            try f.core.archive(RequestID(1))
        }
        #expect(f.core.status(of: RequestID(1)) == .offered(DriverID(1)))
    }

    /// Compaction moves the waiting requests to new slots: they keep their order (D7 waits are
    /// served oldest first) and their open-request records (D12).
    @Test func compactionKeepsWaitingOrderAndOpenRequests() throws {
        let f = try Fixture()
        try f.addDriver(1, at: point(100, 100))
        // Driver 1 busy with a ride; three customers wait (patience) in zone 0, oldest first.
        try f.send(.requestRide(RequestID(2000), customer: CustomerID(9), origin: point(500, 500),
                                destination: point(1500, 500), patience: 0))
        try f.send(.accept(DriverID(1), RequestID(2000)))
        for (id, customer) in [(2001, 21), (2002, 22), (2003, 23)] {
            try f.send(.requestRide(RequestID(id), customer: CustomerID(customer), origin: point(600, 600),
                                    destination: point(1500, 500), patience: 3600))
        }
        // 1,500 requests end while they wait (each waits too, then its customer cancels), so the live table
        // is compacted under them, at the 1,024th ended record. (A zero-patience request with no taxi free
        // would end before it opens, and leave no record in the live table.)
        for id in 3001...4500 {
            try f.send(.requestRide(RequestID(id), customer: CustomerID(id), origin: point(600, 600),
                                    destination: point(1500, 500), patience: 3600))
            try f.send(.cancel(RequestID(id), by: CustomerID(id)))
        }
        #expect(f.core.requestCount == 1504 && f.core.requests.count == 480 && f.core.endedSlots == 476)
        #expect(f.core.invariantViolations().isEmpty)
        #expect(throws: DispatchError.customerHasOpenRequest(CustomerID(22), open: RequestID(2002))) {
            try f.core.handle(.requestRide(RequestID(5000), customer: CustomerID(22), origin: point(600, 600),
                                           destination: point(1500, 500), patience: 0), at: f.time)
        }
        try f.send(.pickedUp(DriverID(1), RequestID(2000)))
        let effects = try f.send(.droppedOff(DriverID(1), RequestID(2000), at: point(700, 700)))
        #expect(!effects.contains { if case .offer = $0 { true } else { false } })  // not available yet
        let offered = try f.send(.setAvailable(DriverID(1), true))
        #expect(offered.contains(.offer(DriverID(1), RequestID(2001), expiresAt: f.time + 60)))
        // Archiving 1,024 of the ended requests compacts the ended table as well.
        for id in 3001...4024 { try f.core.archive(RequestID(id)) }
        #expect(f.core.ended.count == 477 && f.core.archivedEnded == 0 && f.core.requestCount == 480)
        #expect(f.core.status(of: RequestID(4500)) == .cancelled && f.core.status(of: RequestID(2000)) == .completed)
        #expect(f.core.invariantViolations().isEmpty)
    }

    /// The table holds at most about twice the requests held plus 1,024 records, however many
    /// rides pass through: memory does not grow with the service's age.
    @Test func liveRecordsStayBoundedUnderALongStreamOfCompletedRides() throws {
        let f = try Fixture()
        try f.addDriver(1, at: point(100, 100))
        var largest = 0
        for id in 1...5_000 {
            try Self.serveRide(f, id, customer: id % 50)
            if id > 10 { try f.core.archive(RequestID(id - 10)) }  // ten ended rides kept, as a host's retention
            largest = max(largest, f.core.requests.count, f.core.ended.count, f.core.directory.footprint)
        }
        #expect(f.core.requestCount == 10)
        #expect(largest <= 2 * 10 + 1024 + 1)
        #expect(f.core.invariantViolations().isEmpty)
    }
}
