import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Durability: a new host on the same store rebuilds the core by replaying the command log.
/// The restarts on each storage engine are in `StoreContract+Restart.swift`.
@Suite struct RestartTests {
    /// Drivers 1–4 on shift; request 1 offered (timer pending), request 2 accepted, request 3 completed,
    /// a reservation scheduled, a cancelled request; driver 4 available in the far zone's queue.
    static func busyDay(_ host: DispatchHost, _ clock: ManualClock) async throws {
        for d in 1...4 { try await host.execute(.addDriver(DriverID(d), taxiCode: "TX-\(d)")) }
        let places = [Position(x: 500, y: 500), Position(x: 600, y: 600), Position(x: 700, y: 700), Position(x: 3500, y: 3500)]
        for (d, place) in zip(1..., places) {
            try await host.execute(.startShift(DriverID(d), at: place))
            try await host.execute(.setAvailable(DriverID(d), true))
            clock.advance(by: 1)
        }
        let here = Position(x: 900, y: 400), there = Position(x: 3000, y: 3000)
        let done = try await host.requestRide(customer: CustomerID(30), from: here, to: there, patience: 0)
        try await host.execute(.accept(DriverID(1), done.id))
        clock.advance(by: 100)
        try await host.execute(.pickedUp(DriverID(1), done.id))
        clock.advance(by: 500)
        try await host.execute(.droppedOff(DriverID(1), done.id, at: there))
        let accepted = try await host.requestRide(customer: CustomerID(20), from: here, to: there, patience: 0)
        try await host.execute(.accept(DriverID(2), accepted.id))
        let cancelled = try await host.requestRide(customer: CustomerID(40), from: here, to: there, patience: 300)
        try await host.execute(.cancel(cancelled.id, by: CustomerID(40)))
        _ = try await host.reserveRide(customer: CustomerID(50), from: here, to: there, meetingTime: clock.now() + 3 * 3600)
        clock.advance(by: 10)
        let offered = try await host.requestRide(customer: CustomerID(10), from: here, to: there, patience: 0)
        #expect(offered.status == .offered(DriverID(3)))
    }

    static func makeCore() throws -> DispatchCore {
        let city = try CityGeometry(width: 4_000, height: 4_000, zoneSide: 4_000.0 / 3)   // 3 × 3 whole squares over the city
        return try DispatchCore(city: city, travel: GridTravelModel(speed: 8.3), policy: ZoneFIFOPolicy())
    }

    @Test func overdueTimersFireRightAfterReplay() async throws {
        let store = InMemoryDispatchStore()
        let clock = ManualClock()
        do {
            let host = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
            try await Self.busyDay(host, clock)
        }
        clock.advance(by: 3_600)  // the service was down for an hour
        let restarted = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
        #expect(await restarted.state().requests[RequestID(5)] == .offered(DriverID(3)))
        await restarted.fireDueTimers()
        #expect(await restarted.state().requests[RequestID(5)] == .offered(DriverID(4)))
        #expect(await restarted.invariantViolations().isEmpty)
    }

    @Test func newRequestIDsContinueAfterRestart() async throws {
        let store = InMemoryDispatchStore()
        let clock = ManualClock()
        do {
            let host = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
            try await Self.busyDay(host, clock)
        }
        let restarted = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
        let next = try await restarted.requestRide(customer: CustomerID(60), from: Position(x: 1, y: 1),
                                                   to: Position(x: 2, y: 2), patience: 0)
        #expect(next.id == RequestID(6))
    }

    @Test func concurrentCommandsAreLoggedInOrderAndReplayIdentically() async throws {
        let store = InMemoryDispatchStore()
        let clock = ManualClock()
        let host = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
        for d in 1...20 {
            try await host.execute(.addDriver(DriverID(d), taxiCode: "TX-\(d)"))
            try await host.execute(.startShift(DriverID(d), at: Position(x: Double(d) * 150, y: 500)))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for d in 1...20 { group.addTask { try await host.execute(.setAvailable(DriverID(d), true)) } }
            for c in 1...20 {
                group.addTask {
                    _ = try await host.requestRide(customer: CustomerID(c), from: Position(x: 900, y: 400),
                                                   to: Position(x: 3000, y: 3000), patience: 120)
                }
            }
            try await group.waitForAll()
        }
        let log = try await store.commands()
        #expect(log.map(\.sequence) == Array(1...Int64(log.count)))
        let restarted = try await DispatchHost(store: store, clock: clock, makeCore: Self.makeCore)
        #expect(await restarted.state() == host.state())
    }
}
