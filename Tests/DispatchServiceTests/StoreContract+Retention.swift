import DispatchCore
import Testing
@testable import DispatchService

/// The archive's retention (`RideArchive.deleteArchivedRides`) on every engine.
extension StoreContract {
    /// The store deletes exactly the rides that ended before the time given, in chunks, and keeps the counts.
    static func retentionDeletesRidesEndedBeforeTheCutoffAndKeepsTheCounts(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let statuses: [RequestStatus] = [.completed, .rejected, .completed, .cancelled, .expired]
            let rides = zip(1..., statuses).map { id, status in
                EndedRide(ended(id, customer: 7, status, code: status == .completed ? "TX-1" : nil), endedAt: Double(id) * 100)
            }
            try await store.archive(rides)
            let counts: [RequestStatus: Int] = [.completed: 2, .rejected: 1, .cancelled: 1, .expired: 1]
            #expect(try await store.deleteArchivedRides(endedBefore: 300, chunk: 1) == 2)  // 100 and 200; 300 is not before
            let reopened = try await site.open()
            #expect(try await reopened.archivedRide(RequestID(1)) == nil)
            #expect(try await reopened.archivedRide(RequestID(2)) == nil)
            #expect(try await reopened.archivedRide(RequestID(3)) == rides[2].ride)
            #expect(try await reopened.archivedRides(of: CustomerID(7)).map(\.id.rawValue) == [3, 4, 5])
            #expect(try await reopened.archivedStates(after: 0, limit: 10).map(\.id.rawValue) == [3, 4, 5])
            #expect(try await reopened.archivedCounts() == counts)  // totals of every ride that ended
            #expect(try await reopened.deleteArchivedRides(endedBefore: 300) == 0)
            #expect(try await reopened.deleteArchivedRides(endedBefore: 1_000, chunk: 2) == 3)
            #expect(try await reopened.archivedStates(after: 0, limit: 10).isEmpty)
            #expect(try await reopened.archivedCounts() == counts)
        }
    }
}
