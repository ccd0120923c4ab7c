import Testing
@testable import DispatchCore

/// `DispatchCore.prefetchRecords(driver:request:takesIndexSlot:)` and `prefetchDirectoryEntries(of:)` are cache hints:
/// a core given hints before every command, right or wrong, answers every command and ends in every field as a core
/// given none.
@Suite struct CacheHintTests {
    @Test(arguments: DispatchPolicies.names) func hintsBeforeEveryCommandChangeNoAnswerAndNoField(policy: String) throws {
        for seed in UInt64(1)...3 {
            let plain = try SnapshotTests.makeCore(policy)
            let hinted = try SnapshotTests.makeCore(policy)
            // An empty core (no driver, no request yet) and ids out of every range.
            for id in [-1, 0, 1, 7, Int(Int32.max)] {
                hinted.prefetchRecords(driver: DriverID(id), request: RequestID(id), takesIndexSlot: true)
                [Int32(truncatingIfNeeded: id)].withUnsafeBufferPointer { hinted.prefetchDirectoryEntries(of: $0) }
            }
            var chaos = ChaosDriver(core: plain, seed: seed)
            expectSameAnswers(from: hinted, as: plain, chaos: &chaos, steps: 1500, label: "seed \(seed)") { chaos in
                let driver = chaos.chance(10) ? DriverID(-chaos.pick(1...3)) : chaos.driver()
                hinted.prefetchRecords(driver: driver, request: chaos.chance(20) ? nil : chaos.request(),
                                       takesIndexSlot: chaos.chance(2))
                let requests = (0 ..< chaos.pick(1...3)).map { _ in
                    Int32(truncatingIfNeeded: chaos.chance(10) ? -chaos.pick(1...3) : chaos.request().rawValue)
                }
                requests.withUnsafeBufferPointer { hinted.prefetchDirectoryEntries(of: $0) }
            }
        }
    }
}
