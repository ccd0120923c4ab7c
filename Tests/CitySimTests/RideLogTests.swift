import DispatchCore
import Testing
@testable import CitySim

/// `RideLog`: records by id across chunks, whether each next chunk is made ready on another core or
/// allocated in place; sealing stops at the first request still open.
@Suite struct RideLogTests {
    static func record(_ id: Int) -> RideRecord {
        var record = RideRecord(customer: CustomerID(id), requestedAt: Double(id), meetingTime: nil,
                                origin: Position(x: Double(id), y: 1), destination: Position(x: 2, y: Double(id)),
                                originZone: id % 7)
        record.openSlot = Int32(id % 3)  // open
        return record
    }

    @Test(arguments: [false, true])
    func recordsReadBackByIdAcrossChunks(prefaulted: Bool) {
        let log = RideLog()
        if prefaulted { log.prefaultChunksAhead() }
        let count = 3 * RideLog.chunkSize + 17
        for id in 0..<count { log.append(Self.record(id)) }
        log.removeLast()
        log.append(Self.record(count - 1))
        log[RideLog.chunkSize].fare = 12.5
        #expect(log.count == count)
        #expect(log.indices.allSatisfy { log[$0].requestedAt == Double($0) && log[$0].customer == CustomerID($0) })
        #expect(log[RideLog.chunkSize].fare == 12.5 && log[RideLog.chunkSize - 1].fare == 0)
        log.sealAll()
        let sealed = log.sealedRecords()
        #expect(sealed.count == count && sealed.indices.allSatisfy { sealed[$0].origin.x == Double($0) })
    }

    @Test func sealingStopsAtTheFirstRequestStillOpen() {
        let log = RideLog()
        for id in 0..<10 { log.append(Self.record(id)) }
        for id in [0, 1, 2, 4, 5] { log[id].openSlot = -1 }
        #expect(log.sealEnded() == 3)  // 3 is open: 4 and 5 wait behind it
        log[3].openSlot = -1
        #expect(log.sealEnded() == 6)
        #expect(log.sealedRecords().count == 6)
    }
}
