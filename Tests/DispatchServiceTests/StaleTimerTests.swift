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
}
