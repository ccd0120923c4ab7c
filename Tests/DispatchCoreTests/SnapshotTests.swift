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
