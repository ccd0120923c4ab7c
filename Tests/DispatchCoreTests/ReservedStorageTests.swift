import Testing
@testable import DispatchCore

/// `DispatchCore.reserveCapacity` sizes the core's tables from a host's expected counts, and
/// `unusedReservedStorage` tells the host where the room not used yet lies in the two tables that grow by one
/// entry per request (what is kept of ended requests, and the request directory), so it can have those pages
/// mapped ahead of the writes.
@Suite struct ReservedStorageTests {
    @Test func theOpenTableHasRoomForOneRequestPerTaxiAndTheTombstonesBesideThem() throws {
        let f = try Fixture()
        f.core.reserveCapacity(drivers: 2_000, requests: 160_000)
        // The most a compaction lets the table hold: one request in service per taxi, and four tombstones each.
        #expect(f.core.requests.capacity >= 2_000 * (1 + DispatchCore.tombstonesPerKept) + 1)
        #expect(f.core.ended.capacity >= 160_000)

        let small = try Fixture()  // never more than the requests the host expects
        small.core.reserveCapacity(drivers: 2_000, requests: 3_000)
        #expect(small.core.requests.capacity >= 3_000 && small.core.requests.capacity < 4_000)
    }

    @Test func theUnusedRoomLiesRightAfterTheLastEndedRequestUpToTheReservation() throws {
        let f = try Fixture()
        f.core.reserveCapacity(drivers: 10, requests: 1_000)
        let before = f.core.unusedReservedStorage()
        try #require(before.count == 2)
        #expect(before[0].count >= 1_000 * MemoryLayout<EndedRequest>.stride)
        #expect(before[1].count >= 1_000 * MemoryLayout<RequestDirectory.Location>.stride)

        // No taxi at all: each request is turned down and ends at once (D7), one entry in each table.
        for id in 0..<10 { try f.request(id, from: point(500, 500)) }
        try #require(f.core.ended.count == 10 && f.core.directory.footprint == 10)
        let after = f.core.unusedReservedStorage()
        try #require(after.count == 2)
        f.core.ended.withUnsafeBufferPointer { ended in
            #expect(after[0].baseAddress == UnsafeRawPointer(ended.baseAddress! + ended.count))
        }
        // The tables filled their room without moving: each range starts further on and ends where it ended.
        for (old, new) in zip(before, after) {
            #expect(new.baseAddress! > old.baseAddress! && new.baseAddress! + new.count == old.baseAddress! + old.count)
        }
        #expect(after[0].count == before[0].count - 10 * MemoryLayout<EndedRequest>.stride)
    }

    @Test func aCoreWithoutReservedRoomReportsNoRange() throws {
        let f = try Fixture()
        #expect(f.core.unusedReservedStorage().isEmpty)
    }
}
