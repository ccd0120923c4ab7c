import Foundation
import Testing
@testable import DispatchCore

/// `DispatchCore.Snapshot`: a core restored from a snapshot is the same core.
@Suite struct SnapshotTests {
    static func makeCore(_ policy: String) throws -> DispatchCore {
        let city = try CityGeometry(width: 6000, height: 4000, zoneSide: 1000)
        return try DispatchCore(city: city, travel: GridTravelModel(speed: 8),
                                policy: DispatchPolicies.make(name: policy, batchWindow: 20))
    }

    /// Two cores, one restored from the other's snapshot half-way, get the same seeded stream of valid
    /// and invalid commands: every answer and, after every command, every internal field agree.
    @Test(arguments: DispatchPolicies.names) func aRestoredCoreAnswersEveryLaterCommandAsTheOriginal(policy: String) throws {
        for seed in UInt64(1)...5 {
            let original = try Self.makeCore(policy)
            var chaos = ChaosDriver(core: original, seed: seed)
            for _ in 0..<1000 {
                let (command, time) = chaos.next()
                if let effects = try? original.handle(command, at: time) { chaos.record(effects) }
            }
            let fresh = try Self.makeCore(policy)
            let restored = try DispatchCore(restoring: original.snapshot, city: original.city, travel: fresh.travel,
                                            policy: fresh.policy, rules: fresh.rules)
            #expect(Snapshot(of: restored) == Snapshot(of: original), "seed \(seed): restored at once")
            expectSameAnswers(from: restored, as: original, chaos: &chaos, steps: 1000, label: "seed \(seed)")
        }
    }

    /// Every stored property of the core is either configuration or in the snapshot, so a property
    /// added to the core without being added to the snapshot fails here.
    @Test func theSnapshotHoldsEveryStoredPropertyButTheConfiguration() throws {
        let core = try Self.makeCore("zone-fifo")
        // `gridTravel` and `anyTravel` are `travel` itself, typed for the closest-taxi search.
        let configuration: Set = ["city", "travel", "gridTravel", "anyTravel", "policy", "rules"]
        let stored = Set(Mirror(reflecting: core).children.compactMap(\.label)).subtracting(configuration)
        let snapshotted = Set(Mirror(reflecting: core.snapshot).children.compactMap(\.label))
        #expect(stored == snapshotted)
    }

    /// A snapshot survives JSON (the service's checkpoint payload), infinite deadlines included.
    @Test func aSnapshotRoundTripsThroughJSON() throws {
        let core = try Self.makeCore("nearest-idle")
        var chaos = ChaosDriver(core: core, seed: 9)
        for _ in 0..<1500 {
            let (command, time) = chaos.next()
            if let effects = try? core.handle(command, at: time) { chaos.record(effects) }
        }
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoded = try decoder.decode(DispatchCore.Snapshot.self, from: try encoder.encode(core.snapshot))
        #expect(decoded == core.snapshot)
        #expect(core.snapshot.requestCount > 0)
    }

    /// The zone queues keep their checkpoint format: the seven parallel tables (per zone `head`, `tail`, `count`;
    /// per slot `next`, `previous`, `zoneOfSlot`, `stamp`) and `nextStamp`, whatever the queues hold in memory, so
    /// the service's stored checkpoints still restore.
    @Test func theZoneQueuesAreStoredAsTheirSevenTables() throws {
        let core = try Self.makeCore("zone-fifo")
        for (i, x) in [100.0, 300, 1500, 200].enumerated() {
            _ = try core.handle(.addDriver(DriverID(i + 1), taxiCode: "T\(i + 1)"), at: 0)
            _ = try core.handle(.startShift(DriverID(i + 1), at: Position(x: x, y: 100)), at: 0)
            _ = try core.handle(.setAvailable(DriverID(i + 1), true), at: 0)
        }
        _ = try core.handle(.setAvailable(DriverID(2), false), at: 1)
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(core.snapshot)) as? [String: Any]
        let queues = try #require(json?["queues"] as? [String: Any])
        #expect(Set(queues.keys) == ["head", "tail", "count", "next", "previous", "zoneOfSlot", "stamp", "nextStamp"])
        #expect((queues["head"] as? [Int])?.prefix(2) == [0, 2])  // zone 0: slots 0 and 3 (2 left); zone 1: slot 2
        #expect((queues["tail"] as? [Int])?.prefix(2) == [3, 2])
        #expect((queues["count"] as? [Int])?.prefix(2) == [2, 1])
        #expect(queues["next"] as? [Int] == [3, -1, -1, -1])
        #expect(queues["previous"] as? [Int] == [-1, -1, -1, 0])
        #expect(queues["zoneOfSlot"] as? [Int] == [0, -1, 1, 0])
        #expect(queues["stamp"] as? [Int] == [1, 2, 3, 4])
        #expect(queues["nextStamp"] as? Int == 5)
    }

    /// A stored snapshot whose queue tables disagree in length is refused when read, naming the table.
    @Test func aSnapshotWithQueueTablesOfDifferentLengthsIsRefused() throws {
        let core = try Self.makeCore("zone-fifo")
        _ = try core.handle(.addDriver(DriverID(1), taxiCode: "T1"), at: 0)
        var json = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(core.snapshot)) as? [String: Any])
        var queues = try #require(json["queues"] as? [String: Any])
        queues["stamp"] = [0, 0]
        json["queues"] = queues
        let data = try JSONSerialization.data(withJSONObject: json)
        #expect {
            try JSONDecoder().decode(DispatchCore.Snapshot.self, from: data)
        } throws: { error in
            "\(error)".contains("stamp") && "\(error)".contains("2 slots, where next has 1")
        }
    }

    /// A snapshot of a city with other zones does not fit: a clear refusal, not a crash later.
    @Test func aSnapshotOfAnotherCityIsRefused() throws {
        let core = try Self.makeCore("zone-fifo")
        _ = try core.handle(.addDriver(DriverID(1), taxiCode: "T1"), at: 0)
        let other = try CityGeometry(width: 6000, height: 4000, zoneSide: 2000)
        #expect(throws: DispatchError.self) {
            try DispatchCore(restoring: core.snapshot, city: other, travel: core.travel, policy: core.policy)
        }
    }
}
