import DispatchCore
import Testing
@testable import DispatchService

/// Timers of rides that have ended change nothing: the host drops them without logging a command.
@Suite struct StaleTimerTests {
    @Test func timersOfEndedRidesAreDroppedWithoutALoggedCommand() async throws {
        let store = InMemoryDispatchStore()
        let clock = ManualClock()
        let host = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        try await host.execute(.addDriver(DriverID(1), taxiCode: "TX-1"))
        try await host.execute(.startShift(DriverID(1), at: Position(x: 500, y: 500)))
        try await host.execute(.setAvailable(DriverID(1), true))
        let here = Position(x: 900, y: 400), there = Position(x: 3000, y: 3000)
        let ride = try await host.requestRide(customer: CustomerID(7), from: here, to: there, patience: 0)
        try await host.execute(.accept(DriverID(1), ride.id))  // offer timeout and D9 timers pending
        try await host.execute(.pickedUp(DriverID(1), ride.id))
        try await host.execute(.droppedOff(DriverID(1), ride.id, at: there))
        let logged = try await store.commands().count
        #expect(await host.pendingTimers.count == 2)
        clock.advance(by: 3_600)
        await host.fireDueTimers()
        #expect(await host.pendingTimers.isEmpty)
        #expect(try await store.commands().count == logged)
        let restarted = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        #expect(await restarted.state().requests == (await host.state()).requests)
    }

    @Test func pendingTimersOfEndedRidesAreSweptBeforeTheyFallDue() async throws {
        let host = try await DispatchHost(store: InMemoryDispatchStore(), clock: ManualClock(), makeCore: RestartTests.makeCore)
        try await host.execute(.addDriver(DriverID(1), taxiCode: "TX-1"))
        try await host.execute(.startShift(DriverID(1), at: Position(x: 500, y: 500)))
        try await host.execute(.setAvailable(DriverID(1), true))
        let here = Position(x: 900, y: 400), there = Position(x: 3000, y: 3000)
        for _ in 0..<600 {  // each completed ride leaves an offer timeout and a D9 deadline pending
            let ride = try await host.requestRide(customer: CustomerID(7), from: here, to: there, patience: 0)
            try await host.execute(.accept(DriverID(1), ride.id))
            try await host.execute(.pickedUp(DriverID(1), ride.id))
            try await host.execute(.droppedOff(DriverID(1), ride.id, at: here))
            try await host.execute(.setAvailable(DriverID(1), true))
        }
        // At least 1,200 timers were asked for, none due: each sweep left none of the ended rides'.
        let pending = await host.pendingTimers
        #expect(pending.count < 1_024, "\(pending.count) pending")
        #expect(pending.count >= 2)  // the last ride's, asked for after the last sweep
    }

    @Test func removingTimersKeepsTheOthersInDueOrder() {
        var queue = TimerQueue()
        let dues = (0..<200).map { Double(($0 * 37) % 101) }
        for (n, due) in dues.enumerated() {
            queue.insert(TimerID(kind: .patience, request: RequestID(n), generation: 0), due: due)
        }
        queue.removeAll { $0.request.rawValue % 3 == 0 }
        var fired: [Int] = []
        while let entry = queue.popFirst() { fired.append(entry.timer.request.rawValue) }
        let expected = dues.indices.filter { $0 % 3 != 0 }.sorted { (dues[$0], $0) < (dues[$1], $1) }
        #expect(fired == expected)
    }
}
