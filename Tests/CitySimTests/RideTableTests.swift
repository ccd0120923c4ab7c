import DispatchCore
@testable import CitySim
import Testing

@Suite("Ride table")
struct RideTableTests {
    /// A table of 40 requests: every third ended, every fifth still open with excluded taxis.
    private func table() throws -> RideTable {
        var table = RideTable()
        let scenario = try Scenario.load(path: "Scenarios/megacity.yaml")
        let random = RandomStream(name: "rides", seed: 3, replication: 0)
        for id in 0..<40 {
            let record = RideRecord(customer: CustomerID(id), requestedAt: Double(id), meetingTime: nil,
                                    origin: Position(x: 0, y: 0), destination: Position(x: 1, y: 1), originZone: 0)
            table.append(record, draw: RideDraw(RideDraw.Parameters(scenario), random))
            if id % 5 == 0 { table.exclude(Int32(id), from: id) }
            if id % 3 == 0 { table.end(id) }
        }
        return table
    }

    @Test("the draws' cache hint changes no draw, no excluded list and no record, for open and ended requests")
    func theDrawHintChangesNothing() throws {
        var hinted = try table()
        let plain = try table()
        for id in 0..<40 { hinted.prefetchDraw(id) }
        for id in 0..<40 {
            #expect(hinted[id].openSlot == plain[id].openSlot && hinted[id].customer == plain[id].customer)
            #expect(hinted.excludedTaxis(id) == plain.excludedTaxis(id))
            if plain[id].openSlot >= 0 {
                #expect(hinted.draw(id).pickupNoise == plain.draw(id).pickupNoise)
                #expect(hinted.draw(id).rideNoise == plain.draw(id).rideNoise)
            }
        }
        #expect(hinted.openCount == plain.openCount && hinted.openCapacity == plain.openCapacity)
    }

    @Test("a request recorded before its command's answer takes an open entry only when opened, and gets its draws")
    func anUnopenedRequestTakesNoEntryUntilOpened() throws {
        var table = RideTable()
        let scenario = try Scenario.load(path: "Scenarios/megacity.yaml")
        let random = RandomStream(name: "rides", seed: 3, replication: 0)
        let record = RideRecord(customer: CustomerID(0), requestedAt: 0, meetingTime: nil,
                                origin: Position(x: 0, y: 0), destination: Position(x: 1, y: 1), originZone: 0)
        // Ended by its own command (the core had no taxi): no entry taken, none to give back.
        for id in 0..<10 {
            table.appendUnopened(record)
            table[id].outcome = .rejected
            table.end(id)
            #expect(table[id].openSlot < 0)
        }
        #expect(table.openCount == 0 && table.openCapacity == 0)
        // Still open after its command: opened with its draws, which it keeps until it ends.
        let draw = RideDraw(RideDraw.Parameters(scenario), random)
        table.appendUnopened(record)
        table.open(10, draw: draw)
        #expect(table[10].openSlot >= 0 && table.openCount == 1)
        #expect(table.draw(10).pickupNoise == draw.pickupNoise && table.draw(10).rideNoise == draw.rideNoise)
        table.end(10)
        #expect(table.openCount == 0 && table.openCapacity == 1)
    }
}

@Suite("Ride table in a run")
struct RideTableRunTests {
    @Test("requests the core turns down at once (no taxi on shift) never take an open entry")
    func requestsTurnedDownAtOnceTakeNoOpenEntry() throws {
        // The only shift starts after the horizon: every request of the hour is told "no taxi" in its own command.
        let scenario = try SimulationRunTests.scenario("smoke.yaml", [
            "duration_hours=1", "warmup_hours=0", "demand.requests_per_hour=600",
            "fleet.shifts[0].start=\"12:00\"", "fleet.shifts[0].end=\"20:00\""])
        let sim = try CitySimulation(scenario: scenario)
        let result = try sim.run()
        try #require(result.summary.requests.rejected > 400)
        #expect(result.summary.requests.rejected == result.summary.requests.generated)
        #expect(sim.rides.openCapacity == 0, "\(sim.rides.openCapacity) open entries for requests that never stayed open")
    }
}
