import CitySim
import DispatchCore
import Synchronization
import Testing
@testable import DispatchService

/// `commit_delay_ms` (`DispatchHost.delayCommits(by:)`): a busy host waits before a round of commits so that
/// more commands share it; a host that is not busy does not wait.
@Suite struct CommitDelayTests {
    /// A host on `store` whose commit delay is held by a gate: `calls` counts the waits, and each returns once `open`
    /// (or after 300 s, so that a host that waits when it should not fails the test instead of hanging it).
    ///
    /// Every bound here is minutes, not seconds: the whole suite on two cores leaves async tests no thread for the
    /// first minute or so while the simulation tests run (a CI run failed on 30 s).
    final class Gated: Sendable {
        let host: DispatchHost
        let calls = Mutex(0)
        let open = Mutex(false)

        init(store: FailingLogStore) async throws {
            let scenario = try Scenario.load(yaml: ServiceFixture.scenarioYAML, file: "service-test.yaml")
            host = try await DispatchHost(store: store, clock: SystemClock()) { try scenario.makeDispatchCore() }
            await host.delayCommits(by: .milliseconds(5))
            await host.pauseCommits { [self] _ in
                calls.withLock { $0 += 1 }
                let deadline = ContinuousClock.now + .seconds(300)
                while !open.withLock({ $0 }), ContinuousClock.now < deadline, !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                }
            }
        }

        /// Adds drivers `ids`, each by its own concurrent command, and returns once all are durable.
        func addDrivers(_ ids: some Sequence<Int>) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids { group.addTask { try await self.host.execute(.addDriver(DriverID(id), taxiCode: "T\(id)")) } }
                try await group.waitForAll()
            }
        }

        /// Adds drivers `first` and `second` in one round of commits: the second arrives while the first is being
        /// written (held on `store` until the second is queued), so the round writes two commands and the host is
        /// busy from then on.
        func writeARoundOfTwo(_ first: Int, _ second: Int, on store: FailingLogStore) async throws {
            store.appendsHeld.withLock { $0 = true }
            async let one: Void = addDrivers([first])
            try await Self.waitUntil { store.appending.withLock { $0 } > 0 }
            async let two: Void = addDrivers([second])
            try await waitForQueued(1)
            store.appendsHeld.withLock { $0 = false }
            _ = try await (one, two)
        }

        /// Waits until `count` commands are queued for the next commit (at most 300 s).
        func waitForQueued(_ count: Int) async throws {
            try await Self.waitUntil { await self.host.unwrittenCount >= count }
        }

        /// Waits until `condition` holds, at most 300 s; fails the test if it never does.
        static func waitUntil(_ condition: () async -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(300)
            while await !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            try #require(await condition(), "waited 300 s")
        }
    }

    @Test func aBusyHostWaitsAndTheCommandsArrivingMeanwhileShareOneCommit() async throws {
        let store = FailingLogStore()
        let gated = try await Gated(store: store)
        try await gated.addDrivers([1])
        #expect(gated.calls.withLock { $0 } == 0, "the first round: nothing says the host is busy")
        try await gated.writeARoundOfTwo(2, 3, on: store)
        #expect(store.batches.withLock { $0 } == [1, 1, 1] && gated.calls.withLock { $0 } == 0)
        // Busy now: the next round waits, and the five commands that arrive meanwhile go in one commit.
        async let five: Void = gated.addDrivers(4...8)
        try await Gated.waitUntil { gated.calls.withLock { $0 } > 0 }
        try await gated.waitForQueued(5)
        gated.open.withLock { $0 = true }
        try await five
        #expect(store.batches.withLock { $0 } == [1, 1, 1, 5] && gated.calls.withLock { $0 } == 1)
    }

    @Test func aRoundOfOneCommandEndsTheWaiting() async throws {
        let store = FailingLogStore()
        let gated = try await Gated(store: store)
        gated.open.withLock { $0 = true }
        try await gated.writeARoundOfTwo(1, 2, on: store)
        try await gated.addDrivers([3])      // busy after two: waits, then writes one
        try await gated.addDrivers([4])      // not busy after one: no wait
        #expect(store.batches.withLock { $0 } == [1, 1, 1, 1] && gated.calls.withLock { $0 } == 1)
    }

    @Test func withoutADelayABusyHostDoesNotWait() async throws {
        let store = FailingLogStore()
        let gated = try await Gated(store: store)
        await gated.host.delayCommits(by: .zero)
        try await gated.writeARoundOfTwo(1, 2, on: store)
        try await gated.addDrivers([3])
        #expect(gated.calls.withLock { $0 } == 0)
    }

    @Test func aServiceWithoutTheKeyDelaysBusyCommitsBy2msAndZeroTurnsItOff() async throws {
        let unset = try await ServiceFixture().host
        let off = try await ServiceFixture { $0.commitDelayMs = 0 }.host
        let set = try await ServiceFixture { $0.commitDelayMs = 7.5 }.host
        #expect(await unset.commitDelay == .milliseconds(2))
        #expect(await off.commitDelay == .zero)
        #expect(await set.commitDelay == .microseconds(7_500))
    }

    @Test func theDelayIsReadFromTheConfigOrItsVariableAndRefusedOutside0To1000() throws {
        let folder = try TemporaryFolder()
        let minimal = ServiceConfigReadingTests.minimal
        #expect(try ServiceConfigReadingTests.load(minimal, in: folder).commitDelayMs == nil)
        #expect(try ServiceConfigReadingTests.load(minimal + "\ncommit_delay_ms: 10", in: folder).commitDelayMs == 10)
        let variable = try ServiceConfigReadingTests.load(minimal, in: folder, environment: ["CITYSIM_COMMIT_DELAY_MS": "2.5"])
        #expect(variable.commitDelayMs == 2.5)
        for bad in ["-1", "1001", ".nan"] {
            let error = try #require(ServiceConfigReadingTests.error(minimal + "\ncommit_delay_ms: \(bad)", in: folder))
            #expect(error.message == "commit_delay_ms must be 0–1000", "\(bad)")
        }
    }
}
