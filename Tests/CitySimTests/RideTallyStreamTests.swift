import TestSupport
import Testing
@testable import CitySim

/// `RideTallyStream`: a run that writes no `rides.csv` tallies its rides on the rides helper as they end, and
/// the tally is the one a pass over all the records after the run makes.
@Suite struct RideTallyStreamTests {
    /// Every figure two tallies can differ in.
    static func expectSame(_ a: (tally: RideTally, sortedAssigns: [Double]), _ b: (tally: RideTally, sortedAssigns: [Double]),
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.tally.counts == b.tally.counts, sourceLocation: sourceLocation)
        #expect(a.tally.offers == b.tally.offers && a.tally.booked == b.tally.booked, sourceLocation: sourceLocation)
        #expect(a.tally.pickedUp == b.tally.pickedUp && a.tally.assigns == b.tally.assigns, sourceLocation: sourceLocation)
        #expect(a.sortedAssigns == b.sortedAssigns, sourceLocation: sourceLocation)
        #expect(a.tally.windowWaits == b.tally.windowWaits, sourceLocation: sourceLocation)
        #expect(a.tally.hourWaits == b.tally.hourWaits && a.tally.zoneWaits == b.tally.zoneWaits, sourceLocation: sourceLocation)
        #expect(a.tally.hours.map(\.waitSum) == b.tally.hours.map(\.waitSum), sourceLocation: sourceLocation)
        #expect(a.tally.hours.map { [$0.demand, $0.served, $0.rejected, $0.expired, $0.immediate] }
                == b.tally.hours.map { [$0.demand, $0.served, $0.rejected, $0.expired, $0.immediate] }, sourceLocation: sourceLocation)
        #expect(a.tally.zones.map { [$0.requests, $0.immediate] } == b.tally.zones.map { [$0.requests, $0.immediate] },
                sourceLocation: sourceLocation)
    }

    @Test func ridesTalliedInBatchesAsTheyAreHandedGiveTheOnePassTally() throws {
        let records = RideTallyTests.records(count: 12_000, hours: 14, zones: 11, seed: 29)
        let stream = RideTallyStream(hours: 14, zones: 11, warmup: 3600, expected: 100)  // grows past what it expected
        try stream.start(roads: nil)
        var random = SplitMix64(seed: 3)
        var next = 0
        while next < records.count {  // batches of 1 to 2,000 rows, some empty
            let end = min(records.count, next + Int.random(in: 0..<2_000, using: &random))
            try stream.write(RunResult.RideRows(records: records), next..<end)
            next = end
        }
        try stream.finish(complete: true)
        let streamed = try #require(stream.value())
        #expect(streamed.tally.windowWaits.count > 5_000)
        Self.expectSame(streamed, RideTally.sorted(records, hours: 14, zones: 11, warmup: 3600))
    }

    @Test func aStreamThatDidNotCompleteGivesNoTally() throws {
        let records = RideTallyTests.records(count: 500, hours: 3, zones: 4, seed: 2)
        let stream = RideTallyStream(hours: 3, zones: 4, warmup: 0, expected: 500)
        try stream.write(RunResult.RideRows(records: records), 0..<200)
        try stream.finish(complete: false)
        #expect(stream.value() == nil)
    }

    @Test func aRunWithoutRidesCSVTalliesOnTheHelperTheSummaryOfARunWithoutHelpers() throws {
        // Rush hour's reservations, cancellations and timeouts change a request after it is made; rides are
        // sealed and handed every 64 events, so most of the tally is made while the loop goes on.
        let scenario = try RidesStreamTests.rushHour()
        let streaming = try CitySimulation(scenario: scenario, seed: 8)
        streaming.ridesHandInterval = 64
        streaming.ridesHandBatch = 64
        let result = try streaming.run()
        #expect(streaming.ridesTally != nil)
        let alone = try CitySimulation(scenario: scenario, seed: 8)
        alone.usesHelperThreads = false
        let expected = try alone.run()
        #expect(alone.ridesTally == nil)
        #expect(result.summary.withoutTimings == expected.summary.withoutTimings)
    }
}
