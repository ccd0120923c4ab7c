import DispatchCore
import Testing
@testable import DispatchService

/// Ended rides leave the host's memory for the store's archive: the API still shows them,
/// a restart holds the same, and a long stream of rides leaves a bounded number in memory.
@Suite struct ArchiveTests {
    @Test func archivedRideIsGoneFromMemoryButStillReadableThroughTheAPI() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let ana = try await client.customer("ana@example.com")
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let ride = try await client.call(.post, "/v1/rides", token: ana.token, json: rideJSON).decode(RideBody.self)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token)
            fixture.clock.advance(by: 300)
            try await client.call(.post, "/v1/driver/rides/\(ride.id)/dropoff", token: driver.token, json: #"{"x":3000,"y":3000}"#)
            let before = try await client.call(.get, "/v1/rides/\(ride.id)", token: ana.token)
            #expect(before.status == .ok)

            await fixture.host.archiveEndedRides(after: 60)
            #expect(try await fixture.host.archiveEnded() == 0)  // ended 0 s ago: kept for reports
            fixture.clock.advance(by: 60)
            #expect(try await fixture.host.archiveEnded() == 1)
            #expect(await fixture.host.ride(RequestID(ride.id)) == nil)
            #expect(await fixture.host.census().rides.isEmpty)

            let after = try await client.call(.get, "/v1/rides/\(ride.id)", token: ana.token)
            #expect(after.status == .ok && String(buffer: after.body) == String(buffer: before.body))
            let list = try await client.call(.get, "/v1/rides", token: ana.token).decode(RideList.self)
            #expect(list.rides.map(\.id) == [ride.id] && list.rides[0].status == "completed")
            let state = try await client.call(.get, "/v1/admin/state", token: admin).decode(AdminStateController.StateBody.self)
            #expect(state.rides.map(\.id) == [ride.id] && state.counts == ["completed": 1] && state.total == 1)
            #expect(state.invariantViolations.isEmpty)
            let other = try await client.customer("ben@example.com")
            #expect(try await client.call(.get, "/v1/rides/\(ride.id)", token: other.token).status == .notFound)
            let cancel = try await client.call(.delete, "/v1/rides/\(ride.id)", token: ana.token)
            #expect(cancel.status == .conflict && cancel.problem?.type == "urn:citysim:problem:illegal-ride-state")
            let report = try await client.call(.post, "/v1/rides/\(ride.id)/report", token: ana.token)
            #expect(report.status == .conflict && report.problem?.type == "urn:citysim:problem:report-not-allowed")
        }
    }

    @Test func recoveryAfterArchivingGivesTheSameState() async throws {
        let store = InMemoryDispatchStore()
        let clock = ManualClock()
        let host = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        try await RestartTests.busyDay(host, clock)
        await host.archiveEndedRides(after: 0)
        #expect(try await host.archiveEnded() == 2)  // the completed and the cancelled ride
        let before = await host.state()
        #expect(before.requests.count == 3)
        let restarted = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        #expect(await restarted.state() == before)
        #expect(await restarted.archivedCounts == [.completed: 1, .cancelled: 1])
        #expect(await restarted.replayRefusals == 0)
        #expect(await restarted.invariantViolations().isEmpty)
        #expect(try await restarted.storedRide(RequestID(1))?.status == .completed)
    }

    /// Memory does not grow with the service's age: with a retention of 100 s, 3,000 rides
    /// (one every 10 s) leave at most a dozen in the core and the ledger.
    @Test func liveRecordsStayBoundedUnderALongStreamOfCompletedRides() async throws {
        let clock = ManualClock()
        let host = try await DispatchHost(store: InMemoryDispatchStore(), clock: clock, makeCore: RestartTests.makeCore)
        await host.archiveEndedRides(after: 100)
        try await host.execute(.addDriver(DriverID(1), taxiCode: "TX-1"))
        try await host.execute(.startShift(DriverID(1), at: Position(x: 500, y: 500)))
        let here = Position(x: 900, y: 400), there = Position(x: 3000, y: 3000)
        var largest = 0
        for n in 0..<3_000 {
            try await host.execute(.setAvailable(DriverID(1), true))
            let ride = try await host.requestRide(customer: CustomerID(n % 7), from: here, to: there, patience: 0)
            try await host.execute(.accept(DriverID(1), ride.id))
            try await host.execute(.pickedUp(DriverID(1), ride.id))
            try await host.execute(.droppedOff(DriverID(1), ride.id, at: here))
            clock.advance(by: 10)
            try await host.archiveEnded()
            largest = max(largest, await host.heldRecords)
        }
        #expect(largest <= 11)
        // Ride n ends at 10 n s; after the last round (clock at 30,000 s) those ended by 29,900 s are archived.
        #expect(await host.archivedCounts[.completed] == 2_991)
        #expect(await host.operationalState().archivedRides == 2_991)  // GET /metrics: citysim_rides_archived
        #expect(await host.heldRecords == 9)
        #expect(await host.invariantViolations().isEmpty)
    }
}
