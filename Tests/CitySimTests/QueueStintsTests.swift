import Testing
@testable import CitySim

/// `QueueStints`: the zone-queue stints summed per driver-shift and zone as they end, not logged one by one.
@Suite("Queue stints summed as they end")
struct QueueStintsTests {
    /// One taxi, shift 0–4 h then 5–9 h, window 0–10 h.
    static func twoShifts() -> QueueStints {
        QueueStints(drivers: [(0, [(0, 4 * 3600), (5 * 3600, 9 * 3600)])], window: (0, 10 * 3600))
    }

    @Test("a driver-shift's stints in one zone make one cell: seconds summed, the dispatched ones' waits kept")
    func stintsOfOneZoneMakeOneCell() throws {
        var stints = Self.twoShifts()
        stints.join(0, zone: 3, at: 0)
        stints.leave(0, at: 600, dispatched: true)
        stints.join(0, zone: 3, at: 1000)
        stints.join(0, zone: 4, at: 2000)  // moves zone: the stint in zone 3 ends, censored
        stints.join(0, zone: 3, at: 2100)
        stints.leave(0, at: 3000, dispatched: true)
        let closed = stints.closing(at: 10 * 3600)
        try #require(closed.cells.count == 1)  // zone 4 had 100 s, below the minimum
        let cell = closed.cells[0]
        #expect(cell.zone == 3 && cell.driverShift == 0 && cell.dispatches == 2 && cell.seconds == 600 + 1000 + 900)
        #expect(closed.waits == [600, 900])
    }

    @Test("the waits of zones queued in by turns stay with their zone's cell")
    func wavesOfZonesKeepTheirWaits() throws {
        var stints = Self.twoShifts()
        for (zone, start, seconds) in [(1, 0.0, 1000.0), (2, 1000, 2000), (1, 3000, 900), (2, 3900, 100)] {
            stints.join(0, zone: zone, at: start)
            stints.leave(0, at: start + seconds, dispatched: true)
        }
        let closed = stints.closing(at: 10 * 3600)
        #expect(closed.cells.map(\.zone) == [1, 2] && closed.cells.map(\.dispatches) == [2, 2])
        #expect(closed.waits == [1000, 900, 2000, 100])
    }

    @Test("a driver-shift closes into the kept cells when a stint of the next one ends, numbered across the fleet")
    func aShiftClosesWhenTheNextOneBegins() throws {
        var stints = QueueStints(drivers: [(0, [(0, 3600)]), (1, [(0, 4 * 3600), (5 * 3600, 9 * 3600)])],
                                 window: (0, 10 * 3600))
        stints.join(1, zone: 0, at: 0)
        stints.leave(1, at: 3600, dispatched: true)
        #expect(stints.kept.cells.isEmpty)  // the first driver-shift may still queue more in zone 0
        stints.join(1, zone: 0, at: 5 * 3600)
        stints.leave(1, at: 6 * 3600, dispatched: false)
        #expect(stints.kept.cells.map(\.driverShift) == [1] && stints.kept.cells.map(\.shift) == [1])
        #expect(stints.kept.waits == [3600])
        #expect(stints.closing(at: 10 * 3600).cells.map(\.driverShift) == [2])
    }

    @Test("a stint still open at the horizon is closed there, censored")
    func openStintsAreCensoredAtTheHorizon() throws {
        var stints = QueueStints(drivers: [(0, [(0, 8 * 3600)])], window: (0, 8 * 3600))
        stints.join(0, zone: 1, at: 3600)
        let closed = stints.closing(at: 8 * 3600)
        #expect(closed.cells.map(\.seconds) == [7 * 3600] && closed.cells.map(\.dispatches) == [0])
        #expect(stints.closing(at: 8 * 3600).cells.count == 1)  // closing leaves the stints as they were
    }

    @Test("stints begun before the window, or of a driver-shift the window cuts, keep nothing")
    func onlyCompleteDriverShiftsKeepCells() throws {
        var stints = QueueStints(drivers: [(0, [(0, 8 * 3600)]), (0, [(2 * 3600, 6 * 3600)])], window: (3600, 6 * 3600))
        for taxi: Int32 in [0, 1] {
            stints.join(taxi, zone: 0, at: 2 * 3600)
            stints.leave(taxi, at: 4 * 3600, dispatched: true)
        }
        #expect(stints.closing(at: 6 * 3600).cells.map(\.driverShift) == [1])
    }
}
