import Testing
@testable import DispatchCore

/// Memory (issue 11): a request that ends leaves the live table. The core keeps 16 bytes of it
/// (`EndedRequest`) plus its 4-byte directory entry, so a long run's core grows by about 20 bytes per
/// finished request, and its live table stays O(open requests).
@Suite struct RequestMemoryTests {
    @Test func theLiveTableHoldsOnlyOpenRequestsAfterThousandsHaveEnded() throws {
        let f = try Fixture()
        try f.addDriver(1, at: point(100, 100))
        // Two reservations stay open (scheduled: no allocation timer is sent) through the whole stream.
        for id in 0...1 {
            try f.send(.reserveRide(RequestID(id), customer: CustomerID(900 + id), origin: point(500, 500),
                                    destination: point(1500, 500), meetingTime: 86_000))
        }
        var time = f.time
        for id in 2..<5_002 {  // served one after another by driver 1 (no invariant check per command: O(n²))
            let request = RequestID(id), driver = DriverID(1)
            _ = try f.core.handle(.requestRide(request, customer: CustomerID(id % 50), origin: point(500, 500),
                                               destination: point(1500, 500), patience: 0), at: time)
            _ = try f.core.handle(.accept(driver, request), at: time)
            _ = try f.core.handle(.pickedUp(driver, request), at: time + 60)
            _ = try f.core.handle(.droppedOff(driver, request, at: point(1500, 500)), at: time + 120)
            _ = try f.core.handle(.updatePosition(driver, point(100, 100)), at: time + 120)
            _ = try f.core.handle(.setAvailable(driver, true), at: time + 120)
            time += 180
        }
        let held = f.core.requests.count - f.core.endedSlots
        #expect(held == 2)
        #expect(f.core.requests.count <= (1 + DispatchCore.tombstonesPerKept) * held + DispatchCore.compactionFloor)
        #expect(f.core.ended.count == 5_000 && f.core.directory.footprint == 5_002)
        #expect(f.core.status(of: RequestID(0)) == .scheduled && f.core.status(of: RequestID(4_000)) == .completed)
        #expect(f.core.requestCount == 5_002)
        // What grows with the run: one ended record and one directory entry per finished request.
        #expect(MemoryLayout<EndedRequest>.stride == 16 && MemoryLayout<RequestDirectory.Location>.stride == 4)
        let kept = MemoryLayout<EndedRequest>.stride * f.core.ended.count
            + MemoryLayout<RequestDirectory.Location>.stride * f.core.directory.footprint
            + MemoryLayout<RequestRecord>.stride * f.core.requests.count
        #expect(Double(kept) / 5_000 <= 64)
        #expect(f.core.invariantViolations().isEmpty)
        // A D13 report after the ride still reaches the driver, from what the core kept.
        #expect(try f.send(.report(.customer(CustomerID(4_000 % 50)), RequestID(4_000)), at: time)
                == [.reportRecorded(RequestID(4_000), count: 1)])
    }
}
