@testable import CacheHint
import Testing

/// `RecordTable`, the core's and the simulator's table of records by slot: records stay in their slots as the
/// table grows, a copy taken out does not follow later writes, every record is released exactly once, and a
/// slot outside the table traps instead of reading memory that holds no record.
@Suite struct RecordTableTests {
    @Test func recordsKeepTheirSlotsAsTheTableGrows() {
        var table = RecordTable<String>()
        for slot in 0 ..< 1_000 { table.append("record \(slot)") }  // from room for 1: ten moves
        #expect(table.count == 1_000 && table.capacity >= 1_000)
        #expect(table.indices == 0 ..< 1_000)
        #expect(table.elements == (0 ..< 1_000).map { "record \($0)" })
        table[517] += " changed"
        #expect(table[517] == "record 517 changed" && table[516] == "record 516" && table[518] == "record 518")
        #expect(table.first { $0.hasSuffix("changed") } == "record 517 changed")
        #expect(table.count { $0.hasSuffix("9") } == 100)
    }

    @Test func mapAndSumVisitEveryRecordInSlotOrder() {
        let table = RecordTable([0.1, 0.2, 0.3, 1e16, -1e16])
        #expect(table.map { $0 * 2 } == [0.2, 0.4, 0.6, 2e16, -2e16])
        #expect(table.sum { $0 } == [0.1, 0.2, 0.3, 1e16, -1e16].reduce(0, +))  // the same order, the same rounding
        #expect(table.sum { $0 } != [-1e16, 1e16, 0.3, 0.2, 0.1].reduce(0, +))
        #expect(RecordTable<Int>().map { $0 }.isEmpty && RecordTable<Int>().sum { $0 } == 0)
    }

    @Test func roomReservedAheadIsUsedBeforeTheTableMoves() {
        var table = RecordTable<Int>()
        table.reserveCapacity(100)
        let base = table.base
        for slot in 0 ..< 100 { table.append(slot) }
        #expect(table.base == base && table.capacity == 100)
        table.append(100)
        #expect(table.capacity == 200 && table.elements == Array(0 ... 100))
    }

    @Test func aCopyTakenOutDoesNotFollowLaterWrites() {
        var table = RecordTable([1, 2, 3])
        let copy = table.elements
        table[0] = 10
        table.swapAt(1, 2)
        table.removeLast(1)
        #expect(copy == [1, 2, 3])
        #expect(table.elements == [10, 3])
    }

    @Test func everyRecordIsReleasedOnceWhenDroppedOrWhenTheTableEnds() {
        let released = Counter()
        do {
            var table = RecordTable<Tracked>()
            for _ in 0 ..< 10 { table.append(Tracked(released)) }
            table.swapAt(0, 9)
            #expect(released.value == 0)
            table.removeLast(4)
            #expect(released.value == 4 && table.count == 6)
            table[0] = Tracked(released)  // the record written over is released
            #expect(released.value == 5)
        }
        #expect(released.value == 11)  // the table's last six with it
    }

    @Test func aSlotOutsideTheTableTraps() async {
        await #expect(processExitsWith: .failure) {
            let table = RecordTable([1, 2, 3])
            _ = table[3]
        }
        await #expect(processExitsWith: .failure) {
            var table = RecordTable([1, 2, 3])
            table[-1] = 0
        }
        await #expect(processExitsWith: .failure) {
            var table = RecordTable([1, 2, 3])
            table.removeLast(4)
        }
    }
}

private final class Counter: @unchecked Sendable {
    var value = 0
}

private final class Tracked {
    let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    deinit { counter.value += 1 }
}
