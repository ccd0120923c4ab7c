import DispatchCore
import TestSupport
import Testing
@testable import CitySim

/// `RideTally`: what the summary counts of a run's requests, in one pass over the records.
@Suite struct RideTallyTests {
    /// A seeded day of requests: immediate ones (some picked up) and reservations, over `hours` hours and `zones` zones.
    static func records(count: Int, hours: Int, zones: Int, seed: UInt64) -> RideLog.Sealed {
        var random = SplitMix64(seed: seed)
        let log = RideLog()
        for _ in 0..<count {
            let requestedAt = Double.random(in: 0..<Double(hours) * 3600, using: &random).rounded()
            let reservation = Double.random(in: 0..<1, using: &random) < 0.1
            var record = RideRecord(customer: CustomerID(log.count), requestedAt: requestedAt,
                                    meetingTime: reservation ? requestedAt + 7200 : nil,
                                    origin: Position(x: 0, y: 0), destination: Position(x: 1, y: 1),
                                    originZone: Int.random(in: 0..<zones, using: &random))
            if Double.random(in: 0..<1, using: &random) < 0.7 {
                // Whole seconds: many waits tie, as a run's do.
                record.pickupAt = requestedAt + Double.random(in: 0..<900, using: &random).rounded()
                record.acceptedAt = requestedAt + Double.random(in: 0..<30, using: &random)
                record.outcome = .served
            } else {
                record.outcome = [.rejected, .expired, .cancelled][Int.random(in: 0..<3, using: &random)]
            }
            log.append(record)
        }
        log.sealAll()
        return log.sealedRecords()
    }

    @Test func waitsPackedInTheirTagsAreHandedOutAsWithIndexTags() {
        let records = Self.records(count: 20_000, hours: 30, zones: 37, seed: 5)
        let packed = RideTally(records, hours: 30, zones: 37, warmup: 3600)
        let indexed = RideTally(records, hours: 30, zones: 37, warmup: 3600, packingTags: false)
        #expect(packed.windowWaits == indexed.windowWaits)
        #expect(packed.hourWaits == indexed.hourWaits)
        #expect(packed.zoneWaits == indexed.zoneWaits)
        #expect(packed.hours.map(\.waitSum) == indexed.hours.map(\.waitSum))
        #expect(packed.windowWaits.count > 10_000 && packed.hourWaits.allSatisfy { !$0.isEmpty })
        // The window's waits are the hours' waits after the warm-up, each list sorted.
        #expect(packed.windowWaits == packed.hourWaits.dropFirst().flatMap { $0 }.sorted())
        #expect(packed.zoneWaits.flatMap { $0 }.sorted() == packed.windowWaits)
    }

    @Test func theSummarysFirstStepIsTheTallyWithItsAssignmentTimesSorted() {
        let records = Self.records(count: 9_000, hours: 12, zones: 9, seed: 23)
        let (tally, assigns) = RideTally.sorted(records, hours: 12, zones: 9, warmup: 3600)
        let alone = RideTally(records, hours: 12, zones: 9, warmup: 3600)
        #expect(assigns == tally.assigns.sorted() && assigns.count > 4_000)
        #expect(tally.assigns == alone.assigns && tally.windowWaits == alone.windowWaits && tally.counts == alone.counts)
    }

    @Test func eachHourAndZoneCountsWhatAPassPerFigureOverTheRecordsCounts() {
        let records = Self.records(count: 6_000, hours: 10, zones: 7, seed: 11)
        let tally = RideTally(records, hours: 10, zones: 7, warmup: 3600)
        for h in 0..<10 {
            let ofHour = records.filter { min(9, Int($0.requestedAt / 3600)) == h }
            let hour = tally.hours[h]
            #expect(hour.demand == ofHour.count)
            #expect(hour.immediate == ofHour.filter { !$0.isReservation }.count)
            #expect(hour.served == ofHour.filter { $0.outcome == .served }.count)
            #expect(hour.rejected == ofHour.filter { $0.outcome == .rejected }.count)
            #expect(hour.expired == ofHour.filter { $0.outcome == .expired }.count)
            #expect(hour.expired > 0 && hour.rejected > 0 && hour.immediate < hour.demand)
        }
        for z in 0..<7 {
            let ofZone = records.filter { $0.requestedAt >= 3600 && $0.originZone == z }
            #expect(tally.zones[z].requests == ofZone.count)
            #expect(tally.zones[z].immediate == ofZone.filter { !$0.isReservation }.count)
        }
    }

    @Test func aTagHoldsTheLastHourAndZoneAndOutsideTheWindow() {
        let tagging = RideTally.WaitTagging(hours: 4096, zones: 1 << 20 - 1)
        #expect(tagging.packs && tagging.zoneBits == 20)
        for (hour, zone) in [(0, -1), (0, 0), (4095, 1 << 20 - 2), (4095, -1), (17, 12_345)] {
            #expect(tagging.hourAndZone(tagging.tag(hour: hour, zone: zone)) == (hour, zone))
        }
        // One hour or one zone more than 32 bits hold: the tally keeps index tags.
        #expect(!RideTally.WaitTagging(hours: 4097, zones: 1 << 20 - 1).packs)
        #expect(!RideTally.WaitTagging(hours: 4096, zones: 1 << 20).packs)
        #expect(!RideTally.WaitTagging(hours: 24, zones: 1 << 20 - 1, packing: false).packs)
    }
}
