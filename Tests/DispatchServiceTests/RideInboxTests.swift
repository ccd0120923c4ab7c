import CitySim
import DispatchCore
import Foundation
import Synchronization
import Testing
@testable import DispatchService

/// `DispatchHost.submitRide`: ride requests through the host's inbox (what `RideFastPath` uses), answered by a
/// callback once durable, without a task each.
@Suite struct RideInboxTests {
    /// What the rides' callbacks were told, in the order they were called.
    final class Answers: Sendable {
        struct Answer: Sendable {
            var label: String
            var result: Result<RideSnapshot, any Error>
            /// Commands the store had made durable when the answer came.
            var durableThen: Int
        }

        let store: FailingLogStore
        let answers = Mutex<[Answer]>([])

        init(_ store: FailingLogStore) { self.store = store }

        /// Submits a ride of `customer` from (1, 1) to (3, 3) km; its answer is recorded under `label`.
        func submit(_ label: String, customer: Int, on host: DispatchHost) {
            host.submitRide(customer: CustomerID(customer), from: Position(x: 1, y: 1), to: Position(x: 3, y: 3),
                            patience: 0) { [self] result in
                let durable = store.batches.withLock { $0.reduce(0, +) }
                answers.withLock { $0.append(Answer(label: label, result: result, durableThen: durable)) }
            }
        }

        /// Submits `first`, holds its commit on the store until `behind` are submitted too, then runs `release`
        /// (by default: lets the commit go).
        func submit(_ first: (String, Int), thenWhileItsCommitIsHeld behind: [(String, Int)], on host: DispatchHost,
                    release: () -> Void = {}) async throws {
            store.appendsHeld.withLock { $0 = true }
            submit(first.0, customer: first.1, on: host)
            try await CommitDelayTests.Gated.waitUntil { store.appending.withLock { $0 } > 0 }
            for (label, customer) in behind { submit(label, customer: customer, on: host) }
            release()
            store.appendsHeld.withLock { $0 = false }
        }

        var count: Int { answers.withLock { $0.count } }
        var all: [Answer] { answers.withLock { $0 } }
    }

    static func host(on store: FailingLogStore) async throws -> DispatchHost {
        let scenario = try Scenario.load(yaml: ServiceFixture.scenarioYAML, file: "service-test.yaml")
        return try await DispatchHost(store: store, clock: SystemClock()) { try scenario.makeDispatchCore() }
    }

    /// The request ids of the rides the store's log holds, in log order.
    static func loggedRides(_ store: FailingLogStore) async throws -> [RequestID] {
        try await store.commands(after: 0).compactMap { entry in
            if case .requestRide(let id, _, _, _, _) = entry.command { id } else { nil }
        }
    }

    @Test func ridesAreAnsweredOnlyOnceDurableInSubmissionOrderAndThoseWaitingShareTheNextCommit() async throws {
        let store = FailingLogStore()
        let host = try await Self.host(on: store)
        let answers = Answers(store)
        try await answers.submit(("a", 1), thenWhileItsCommitIsHeld: [("b", 2), ("c", 3), ("d", 4)], on: host) {
            Thread.sleep(forTimeInterval: 0.05)
            #expect(answers.count == 0, "nothing is answered while its commit is held")
        }
        try await CommitDelayTests.Gated.waitUntil { answers.count == 4 }

        let all = answers.all
        #expect(all.map(\.label) == ["a", "b", "c", "d"])
        #expect(store.batches.withLock { $0 } == [1, 3], "a alone, then the three that waited, in one commit")
        let rides = try all.map { try $0.result.get() }
        #expect(rides.map(\.customer) == [1, 2, 3, 4].map(CustomerID.init))
        #expect(try await Self.loggedRides(store) == rides.map(\.id), "logged in the order submitted")
        for (position, answer) in all.enumerated() {
            #expect(answer.durableThen >= position + 1, "\(answer.label) answered before it was durable")
        }
        // The drainer stopped once the inbox was empty: a later ride starts another.
        answers.submit("e", customer: 5, on: host)
        try await CommitDelayTests.Gated.waitUntil { answers.count == 5 }
        #expect(store.batches.withLock { $0 } == [1, 3, 1])
        #expect(await host.invariantViolations().isEmpty)
    }

    @Test func ridesSubmittedWhileATaskCommandIsWrittenGoInTheRoundAfterIt() async throws {
        let store = FailingLogStore()
        let host = try await Self.host(on: store)
        let answers = Answers(store)
        store.appendsHeld.withLock { $0 = true }
        async let driver: Void = { try await host.execute(.addDriver(DriverID(1), taxiCode: "T1")) }()
        try await CommitDelayTests.Gated.waitUntil { store.appending.withLock { $0 } > 0 }
        answers.submit("a", customer: 1, on: host)
        answers.submit("b", customer: 2, on: host)
        try await Task.sleep(for: .milliseconds(50))
        #expect(answers.count == 0)
        store.appendsHeld.withLock { $0 = false }
        try await driver
        try await CommitDelayTests.Gated.waitUntil { answers.count == 2 }
        #expect(store.batches.withLock { $0 } == [1, 2])
        #expect(answers.all.map(\.label) == ["a", "b"])
        #expect(try await Self.loggedRides(store) == answers.all.map { try $0.result.get().id })
    }

    @Test func ridesArrivingWhileABusyHostDelaysItsCommitShareIt() async throws {
        let store = FailingLogStore()
        let gated = try await CommitDelayTests.Gated(store: store)
        let host = gated.host, answers = Answers(store)
        gated.open.withLock { $0 = true }
        try await answers.submit(("a", 1), thenWhileItsCommitIsHeld: [("b", 2), ("c", 3)], on: host)
        try await CommitDelayTests.Gated.waitUntil { answers.count == 3 }
        #expect(store.batches.withLock { $0 } == [1, 2] && gated.calls.withLock { $0 } == 0)
        // Busy now: the next round waits, and the rides that come meanwhile join it.
        gated.open.withLock { $0 = false }
        answers.submit("d", customer: 4, on: host)
        try await CommitDelayTests.Gated.waitUntil { gated.calls.withLock { $0 } > 0 }
        answers.submit("e", customer: 5, on: host)
        answers.submit("f", customer: 6, on: host)
        gated.open.withLock { $0 = true }
        try await CommitDelayTests.Gated.waitUntil { answers.count == 6 }
        #expect(store.batches.withLock { $0 } == [1, 2, 3] && gated.calls.withLock { $0 } == 1)
        #expect(answers.all.map(\.label) == ["a", "b", "c", "d", "e", "f"])
    }

    /// With `archive_after_s: 0`, a ride that ends as it is applied (rejected: no taxi is on shift) is due at once;
    /// it must stay in memory until its command is durable, through the inbox and through `requestRide` alike.
    @Test func aRideIsNotArchivedBeforeItsCommitIsDurable() async throws {
        let store = FailingLogStore()
        let host = try await Self.host(on: store)
        await host.archiveEndedRides(after: 0)
        let answers = Answers(store)
        store.appendsHeld.withLock { $0 = true }
        answers.submit("inbox", customer: 1, on: host)
        try await CommitDelayTests.Gated.waitUntil { store.appending.withLock { $0 } > 0 }
        async let direct = host.requestRide(customer: CustomerID(2), from: Position(x: 1, y: 1),
                                            to: Position(x: 3, y: 3), patience: 0)
        try await CommitDelayTests.Gated.waitUntil { await host.unwrittenCount == 1 }
        #expect(try await host.archiveEnded() == 0, "archived before durable")
        store.appendsHeld.withLock { $0 = false }
        let ride = try await direct
        try await CommitDelayTests.Gated.waitUntil { answers.count == 1 }
        #expect(try answers.all[0].result.get().status == .rejected)
        #expect(ride.status == .rejected)
        #expect(try await host.archiveEnded() == 2, "both durable now")
    }

    @Test func aFailedWriteFailsEveryRideOfItsRoundAndKeepsNoneOfThem() async throws {
        let store = FailingLogStore()
        let host = try await Self.host(on: store)
        let answers = Answers(store)
        // The held append goes through; the next round fails.
        try await answers.submit(("kept", 1), thenWhileItsCommitIsHeld: [("lost-1", 2), ("lost-2", 3)], on: host) {
            store.failing.withLock { $0 = true }
        }
        try await CommitDelayTests.Gated.waitUntil { answers.count == 3 }

        let all = answers.all
        #expect(all.map(\.label) == ["kept", "lost-1", "lost-2"])
        let kept = try all[0].result.get()
        for lost in all.dropFirst() {
            guard case .failure(let error) = lost.result, case HostError.storageUnavailable = error else {
                Issue.record("\(lost.label): \(lost.result), not storageUnavailable")
                continue
            }
        }
        store.failing.withLock { $0 = false }
        try await CommitDelayTests.Gated.waitUntil { await !host.broken }
        #expect(try await Self.loggedRides(store) == [kept.id])
        #expect(await host.state().requests.keys.sorted() == [kept.id], "the rebuilt host forgot the lost rides")
        #expect(await host.invariantViolations().isEmpty)
    }
}
