import DispatchCore
import Testing
@testable import DispatchService

extension StoreContract {
    static func ended(_ id: Int, customer: Int, _ status: RequestStatus, code: String? = nil) -> RideSnapshot {
        RideSnapshot(id: RequestID(id), customer: CustomerID(customer), status: status,
                     origin: Position(x: 900.5, y: 400), destination: Position(x: 3000, y: 2999.25),
                     requestedAt: 1_700_000_000.125, meetingTime: status == .expired ? 1_700_010_000 : nil,
                     taxiCode: code, etaSeconds: code == nil ? nil : 61.5, fareCharged: code == nil ? 0 : 12.75)
    }

    /// Archived rides come back whole by id, by customer and in id-ordered pages, with counts by state;
    /// archiving a ride again replaces it; a store opened afterwards has them.
    static func archivedRidesRoundTrip(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let rides = [ended(3, customer: 7, .completed, code: "TX-1"), ended(5, customer: 8, .rejected),
                         ended(9, customer: 7, .expired), ended(4, customer: 7, .cancelled)]
            try await store.archive(rides.map { EndedRide($0, endedAt: 1_700_000_600) })
            try await store.archive([EndedRide(rides[0], endedAt: 1_700_000_600)])
            let reopened = try await site.open()
            #expect(try await reopened.archivedRide(RequestID(3)) == rides[0])
            #expect(try await reopened.archivedRide(RequestID(9)) == rides[2])
            #expect(try await reopened.archivedRide(RequestID(6)) == nil)
            #expect(try await reopened.archivedRides(of: CustomerID(7)).map(\.id.rawValue) == [3, 4, 9])
            let page = try await reopened.archivedStates(after: 3, limit: 2)
            #expect(page.map(\.id.rawValue) == [4, 5] && page.map(\.status) == [.cancelled, .rejected])
            #expect(try await reopened.archivedCounts() == [.completed: 1, .rejected: 1, .expired: 1, .cancelled: 1])
        }
    }
}
