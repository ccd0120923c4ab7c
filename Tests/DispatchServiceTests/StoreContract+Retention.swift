import DispatchCore
import Testing
@testable import DispatchService

/// The archive's retention (`RideArchive.deleteArchivedRides`, `DispatchHost.deleteExpiredArchive`) on every engine.
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

    /// The host deletes archived rides once they ended more than the retention ago, and only once a
    /// checkpoint taken after they left memory exists; the counts, also after a restart, still include them.
    static func archivedRidesPastTheRetentionAreDeletedOnceACheckpointLeftThemOut(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (store, host) = try await busyHost(site, clock)
            await host.archiveEndedRides(after: 0)
            await host.retainArchive(for: 3_600)
            #expect(try await host.archiveEnded() == 2)  // the completed ride 1 and the cancelled ride 3
            try #require(try await host.checkpoint() != nil)
            #expect(try await host.deleteExpiredArchive() == 0)  // ended 10 s ago, kept for the retention
            clock.advance(by: 3_600)
            #expect(try await host.deleteExpiredArchive() == 2)
            #expect(try await host.storedRide(RequestID(1)) == nil)
            #expect(try await host.storedRide(RequestID(3)) == nil)
            #expect(try await host.storedRide(RequestID(2)) != nil)  // open, in memory
            let counts: [RequestStatus: Int] = [.completed: 1, .cancelled: 1]
            #expect(await host.archivedCounts == counts)
            let restarted = try await restart(site, clock)
            await restarted.archiveEndedRides(after: 0)
            #expect(try await restarted.archiveEnded() == 0)
            #expect(await restarted.archivedCounts == counts)
            #expect(try await store.archivedCounts() == counts)
            #expect(await restarted.ride(RequestID(1)) == nil)
        }
    }

    /// A ride the newest checkpoint still holds is not deleted, however old: a restart from that
    /// checkpoint would hold it again, archive it again and count it twice.
    static func retentionSparesRidesTheNewestCheckpointHolds(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (store, host) = try await busyHost(site, clock)
            await host.retainArchive(for: 3_600)
            try #require(try await host.checkpoint() != nil)  // holds the completed and the cancelled ride
            await host.archiveEndedRides(after: 0)
            #expect(try await host.archiveEnded() == 2)
            clock.advance(by: 7_200)
            #expect(try await host.deleteExpiredArchive() == 0)
            let restarted = try await restart(site, clock)
            await restarted.archiveEndedRides(after: 0)
            _ = try await restarted.archiveEnded()
            let counts: [RequestStatus: Int] = [.completed: 1, .cancelled: 1]
            #expect(await restarted.archivedCounts == counts)
            #expect(try await store.archivedCounts() == counts, "counted once")
        }
    }
}
