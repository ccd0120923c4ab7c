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
}
