@testable import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// Memory (issue 11): at steady state the simulator and its core keep at most 150 bytes per finished
/// request. Per request, the simulator keeps its `rides.csv` row (`RideRecord`) and the core its
/// directory entry and, once it has ended, its `EndedRequest`; everything else a request needs lives only
/// while it is open (the core's live table, the simulator's open part) and is bounded by the open requests.
/// Counted too: what `fairness.by_shift_zone` keeps of the zone-queue stints (`QueueStints`: a cell per
/// driver-shift and zone queued in for half an hour, a wait per dispatch from it), here with the shift
/// ending at the horizon so every driver-shift is complete and kept. A log of every stint instead (32 bytes
/// each, about one per request) reads 178 bytes per finished request here. D12's table files the simulator's
/// customers in an array of 4 bytes per expected request (`OpenRequestTable.reserveDense`), counted as well.
@Suite struct RideMemoryTests {
    @Test func aLongRunKeepsAtMost150BytesPerFinishedRequestAndOnlyOpenRecordsLive() throws {
        let path = scenariosDirectory.appendingPathComponent("smoke.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["duration_hours=8", "demand.requests_per_hour=600",
                                                                 "fleet.scale=2", "warmup_hours=0",
                                                                 "fleet.shifts[0].end=\"08:00\""])
        let sim = try CitySimulation(scenario: scenario)
        let result = try sim.run()
        let open = sim.rides.count(where: { $0.outcome == .pending })
        let finished = sim.rides.count - open
        try #require(finished > 4_000 && result.rides.count == sim.rides.count)
        // The open parts: the simulator's for its open requests only, the core's live table compacted.
        #expect(sim.rides.openCount == open)
        let core = sim.core
        let coreOpen = core.requests.count - core.endedSlots
        #expect(coreOpen == open)
        #expect(core.requests.count <= (1 + DispatchCore.tombstonesPerKept) * coreOpen + DispatchCore.compactionFloor)
        // What grows with the run, in bytes per finished request.
        #expect(core.ended.count == sim.rides.count - coreOpen && core.directory.footprint == sim.rides.count)
        let kept = MemoryLayout<RideRecord>.stride * sim.rides.count
            + MemoryLayout<EndedRequest>.stride * core.ended.count
            + MemoryLayout<RequestDirectory.Location>.stride * core.directory.footprint
            + sim.queueStints.kept.bytes + sim.queueStints.closing(at: sim.horizon).bytes
            + core.openRequestOfCustomer.denseBytes  // D12's slot per customer id, sized from the expected requests
        #expect(MemoryLayout<RideRecord>.stride <= 120)
        #expect(core.openRequestOfCustomer.denseBytes > 0, "the simulator files its customers in D12's array")
        #expect(Double(kept) / Double(finished) <= 150, "\(kept) bytes for \(finished) finished requests")
    }
}
