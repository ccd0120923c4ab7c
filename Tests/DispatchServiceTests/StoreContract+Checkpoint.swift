import DispatchCore
import Foundation
import Testing
@testable import DispatchService

extension DispatchHost {
    /// The core's whole state (tests).
    func coreState() -> DispatchCore.Snapshot { core.snapshot }

    /// Pending timers that can still fire, as text, sorted (an uninterrupted host may already have
    /// dropped a stale one that a restarted host still holds: both drop it unfired).
    func liveTimers() -> [String] { pendingTimers.filter { !isStale($0.timer) }.map { "\($0.due) \($0.timer)" }.sorted() }
}

extension StoreContract {
    /// More of the day after `RestartTests.busyDay`: request 5's offer times out and goes to driver 4,
    /// ride 2 is picked up, a new customer asks for a ride.
    static func restOfTheDay(_ host: DispatchHost, _ clock: ManualClock) async throws {
        clock.advance(by: 61)
        await host.fireDueTimers()
        try await host.execute(.pickedUp(DriverID(2), RequestID(2)))
        clock.advance(by: 5)
        _ = try await host.requestRide(customer: CustomerID(70), from: Position(x: 800, y: 800),
                                       to: Position(x: 2000, y: 2000), patience: 300)
    }

    /// A host on a fresh store of the site after `RestartTests.busyDay`.
    static func busyHost(_ site: StoreSite, _ clock: ManualClock) async throws -> (any DispatchStore, DispatchHost) {
        let store = try await site.open()
        let host = try await DispatchHost(store: store, clock: clock, makeCore: RestartTests.makeCore)
        try await RestartTests.busyDay(host, clock)
        return (store, host)
    }

    /// A host restarted on a store of the site.
    static func restart(_ site: StoreSite, _ clock: ManualClock) async throws -> DispatchHost {
        try await DispatchHost(store: try await site.open(), clock: clock, makeCore: RestartTests.makeCore)
    }

    /// The restarted host's core, ledger, views and live timers equal the uninterrupted host's.
    static func expectSameState(_ restarted: DispatchHost, as host: DispatchHost,
                                sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(await restarted.coreState() == host.coreState(), sourceLocation: sourceLocation)
        #expect(await restarted.ledger == host.ledger, sourceLocation: sourceLocation)
        let (after, before) = (await restarted.state(), await host.state())
        #expect(after.drivers == before.drivers && after.requests == before.requests && after.queues == before.queues,
                sourceLocation: sourceLocation)
        #expect(await restarted.liveTimers() == host.liveTimers(), sourceLocation: sourceLocation)
        #expect(await restarted.invariantViolations().isEmpty, sourceLocation: sourceLocation)
        #expect(await restarted.replayRefusals == 0, sourceLocation: sourceLocation)
    }

    /// A host restarted from a checkpoint and the commands after it is in the state of the host that ran on.
    static func restartFromCheckpointMatchesTheUninterruptedHost(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (_, host) = try await busyHost(site, clock)
            let cut = try #require(try await host.checkpoint())
            try await restOfTheDay(host, clock)
            let restarted = try await restart(site, clock)
            await expectSameState(restarted, as: host)
            #expect(await restarted.checkpointStatus.sequence == cut)
            #expect(await restarted.commandsSinceCheckpoint == host.commandsSinceCheckpoint)
            #expect(await restarted.commandsSinceCheckpoint > 0)
        }
    }

    /// After a checkpoint the log holds only the commands after it; the next checkpoint replaces it.
    static func aCheckpointDeletesTheLogUpToIt(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (store, host) = try await busyHost(site, clock)
            let first = try #require(try await host.checkpoint())
            #expect(try await store.commands().isEmpty)
            #expect(try await store.latestCheckpoint()?.sequence == first)
            #expect(try await host.checkpoint() == nil)  // nothing new
            try await restOfTheDay(host, clock)
            let tail = try await store.commands().map(\.sequence)
            #expect(!tail.isEmpty && tail.allSatisfy { $0 > first })
            let second = try #require(try await host.checkpoint())
            #expect(try await store.commands().isEmpty)
            #expect(try await site.open().latestCheckpoint()?.sequence == second)
        }
    }

    /// A crash after the checkpoint is stored and before the log is cut: the restart loads the
    /// checkpoint, skips the log rows it covers, and its next checkpoint cuts them.
    static func aCrashBetweenCheckpointAndCutRecovers(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (store, host) = try await busyHost(site, clock)
            let state = try await host.currentState()
            try await store.saveCheckpoint(StoredCheckpoint(sequence: state.sequence, bytes: try state.encoded()))
            try await restOfTheDay(host, clock)
            #expect(try await store.commands().first?.sequence == 1)  // not cut
            let restarted = try await restart(site, clock)
            await expectSameState(restarted, as: host)
            #expect(await restarted.checkpointStatus.sequence == state.sequence)
            let next = try #require(try await restarted.checkpoint())
            #expect(try await store.commands().isEmpty)
            #expect(try await store.latestCheckpoint()?.sequence == next)
        }
    }

    /// A checkpoint of a newer format version or with corrupted bytes stops the start with an error
    /// naming the store and the reason.
    static func anUnusableCheckpointIsAClearError(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let clock = ManualClock()
            let (store, host) = try await busyHost(site, clock)
            let state = try await host.currentState()
            let good = try state.encoded()
            var newer = good
            newer[HostCheckpoint.magic.count + 3] = UInt8(HostCheckpoint.formatVersion + 1)
            var flipped = good
            flipped[good.count - 10] ^= 0x04
            let cases: [(bytes: [UInt8], reason: String)] = [
                (newer, "format version \(HostCheckpoint.formatVersion + 1) is newer than this build reads"),
                (flipped, "corrupted"), (Array(good.prefix(20)), "not a citysim checkpoint"),
            ]
            for (bytes, reason) in cases {
                try await store.saveCheckpoint(StoredCheckpoint(sequence: state.sequence, bytes: bytes))
                do {
                    _ = try await restart(site, clock)
                    Issue.record("started on a checkpoint that is \(reason)")
                } catch let error as CheckpointError {
                    #expect(error.store == store.backend && error.sequence == state.sequence)
                    #expect(error.reason.contains(reason), "\(error)")
                    #expect("\(error)".contains("the \(store.backend) store's checkpoint at command \(state.sequence)"))
                }
            }
        }
    }
}
