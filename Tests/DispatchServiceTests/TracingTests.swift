import DispatchCore
import Foundation
import InMemoryTracing
import Testing
import Tracing
@testable import DispatchService

/// The host's spans, recorded by an in-memory tracer given to the host (no process-wide bootstrap).
@Suite struct TracingTests {
    let tracer = InMemoryTracer()

    func host(store: any DispatchStore = InMemoryDispatchStore()) async throws -> DispatchHost {
        try await DispatchHost(store: store, clock: ManualClock(), tracer: tracer, makeCore: RestartTests.makeCore)
    }

    func spans(named name: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.operationName == name }
    }

    @Test func anAcceptedCommandRunsInADispatchSpanNamingItsDriverAndEffectCount() async throws {
        let host = try await host()
        try await host.execute(.addDriver(DriverID(7), taxiCode: "TX-7"))
        let effects = try await host.execute(.startShift(DriverID(7), at: Position(x: 500, y: 500)))
        let span = try #require(spans(named: "dispatch.startShift").first)
        #expect(span.attributes.get("dispatch.driver_id") == .int64(7))
        #expect(span.attributes.get("dispatch.effects") == .int64(Int64(effects.count)))
        #expect(span.attributes.get("dispatch.error") == nil && span.status?.code != .error)
        #expect(spans(named: "dispatch.addDriver").count == 1)
    }

    @Test func aRideRequestSpanNamesTheRequestAndTheCustomer() async throws {
        let host = try await host()
        let ride = try await host.requestRide(customer: CustomerID(30), from: Position(x: 900, y: 400),
                                              to: Position(x: 3000, y: 3000), patience: 0)
        let span = try #require(spans(named: "dispatch.requestRide").first)
        #expect(span.attributes.get("dispatch.request_id") == .int64(Int64(ride.id.rawValue)))
        #expect(span.attributes.get("dispatch.customer_id") == .int64(30))
    }

    @Test func aRefusedCommandsSpanNamesTheErrorCaseAndIsAnError() async throws {
        let host = try await host()
        await #expect(throws: DispatchError.unknownDriver(DriverID(9))) {
            try await host.execute(.accept(DriverID(9), RequestID(1)))
        }
        let span = try #require(spans(named: "dispatch.accept").first)
        #expect(span.attributes.get("dispatch.error") == .string("unknownDriver"))
        #expect(span.attributes.get("dispatch.effects") == nil)
        #expect(span.status?.code == .error && span.errors.count == 1)
        #expect(spans(named: "store.commit").isEmpty, "a refused command stores nothing")
    }

    @Test func eachCommitRunsInAStoreSpanInsideTheCommandsSpan() async throws {
        let host = try await host()
        try await host.execute(.addDriver(DriverID(1), taxiCode: "TX-1"))
        let command = try #require(spans(named: "dispatch.addDriver").first)
        let commit = try #require(spans(named: "store.commit").first)
        #expect(commit.attributes.get("store.backend") == .string("memory"))
        #expect(commit.attributes.get("store.batch_size") == .int64(1))
        #expect(commit.parentSpanID == command.spanID && commit.traceID == command.traceID)
    }

    @Test func commitSpansCountEveryCommandOfTheirBatchOnce() async throws {
        let host = try await host()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for d in 1...40 { group.addTask { try await host.execute(.addDriver(DriverID(d), taxiCode: "TX-\(d)")) } }
            try await group.waitForAll()
        }
        let sizes = spans(named: "store.commit").compactMap { span -> Int64? in
            if case .int64(let size) = span.attributes.get("store.batch_size") { size } else { nil }
        }
        #expect(sizes.reduce(0, +) == 40)
        #expect(spans(named: "dispatch.addDriver").count == 40)
    }

    @Test func aQueryRunsInADispatchSpanToo() async throws {
        let host = try await host()
        let effects = try await host.query(.queueStatus(Position(x: 900, y: 400)))
        let span = try #require(spans(named: "dispatch.queueStatus").first)
        #expect(span.attributes.get("dispatch.effects") == .int64(Int64(effects.count)))
        await #expect(throws: DispatchError.self) { try await host.query(.queueStatus(Position(x: -5, y: 400))) }
        #expect(spans(named: "dispatch.queueStatus").last?.attributes.get("dispatch.error") == .string("positionOutsideCity"))
    }

    @Test func eachStoreNamesItsBackend() throws {
        let folder = try TemporaryFolder()
        #expect(try SQLiteDispatchStore(path: folder.path("backend.sqlite")).backend == "sqlite")
        #expect(InMemoryDispatchStore().backend == "memory")
    }
}
