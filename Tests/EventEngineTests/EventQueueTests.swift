import TestSupport
import Testing
@testable import EventEngine

/// Drains `queue`, returning (time, payload) pairs in pop order.
private func drain<P>(_ queue: inout EventQueue<P>) -> [(time: Double, payload: P)] {
    var popped: [(time: Double, payload: P)] = []
    while let next = queue.popNext() { popped.append(next) }
    return popped
}

@Suite struct EventQueueTests {
    @Test func popsEventsInTimeOrder() throws {
        var queue = EventQueue<String>()
        try queue.schedule("c", at: 3)
        try queue.schedule("a", at: 1)
        try queue.schedule("d", at: 4.5)
        try queue.schedule("b", at: 2)
        #expect(drain(&queue).map(\.payload) == ["a", "b", "c", "d"])
    }

    @Test func popAdvancesTheClock() throws {
        var queue = EventQueue<Int>(startTime: 10)
        try queue.schedule(1, at: 12.5)
        #expect(queue.now == 10)
        #expect(queue.peekTime == 12.5)
        _ = queue.popNext()
        #expect(queue.now == 12.5)
        #expect(queue.popNext() == nil)
        #expect(queue.now == 12.5)
    }

    @Test func lowerPriorityValueRunsFirstAtTheSameTime() throws {
        var queue = EventQueue<String>()
        try queue.schedule("late", at: 5, priority: 2)
        try queue.schedule("urgent", at: 5, priority: -1)
        try queue.schedule("normal", at: 5)
        try queue.schedule("earlier", at: 4, priority: 9)
        #expect(drain(&queue).map(\.payload) == ["earlier", "urgent", "normal", "late"])
    }

    @Test func equalTimeAndPriorityComeOutFirstInFirstOut() throws {
        var queue = EventQueue<Int>()
        for value in 0..<100 { try queue.schedule(value, at: 7) }
        #expect(drain(&queue).map(\.payload) == Array(0..<100))
    }

    @Test func schedulingInThePastThrows() throws {
        var queue = EventQueue<Int>()
        try queue.schedule(1, at: 5)
        _ = queue.popNext()
        #expect(throws: EventEngineError.scheduledInThePast(time: 4.999, now: 5)) {
            try queue.schedule(2, at: 4.999)
        }
        #expect(throws: EventEngineError.scheduledInThePast(time: 4, now: 5)) {
            try queue.schedule(2, after: -1)
        }
        #expect(queue.isEmpty)
    }

    @Test func schedulingAtNowIsAllowed() throws {
        var queue = EventQueue<Int>(startTime: 3)
        try queue.schedule(1, at: 3)
        #expect(queue.popNext()?.time == 3)
    }

    @Test func nanAndInfiniteTimesThrow() {
        var queue = EventQueue<Int>()
        #expect(throws: EventEngineError.self) { try queue.schedule(1, at: .nan) }
        #expect(throws: EventEngineError.invalidTime(.infinity)) { try queue.schedule(1, at: .infinity) }
        #expect(queue.count == 0)
        #expect(queue.scheduledCount == 0)
    }

    @Test func thePriorityRangeEndsRunInOrderAndPrioritiesBeyondThrow() throws {
        var queue = EventQueue<String>()
        try queue.schedule("last", at: 1, priority: 127)
        try queue.schedule("first", at: 1, priority: -128)
        try queue.schedule("middle", at: 1, priority: 0)
        #expect(throws: EventEngineError.priorityOutOfRange(128)) { try queue.schedule("x", at: 1, priority: 128) }
        #expect(throws: EventEngineError.priorityOutOfRange(-129)) { try queue.schedule("x", at: 1, priority: -129) }
        #expect(throws: EventEngineError.priorityOutOfRange(200)) { try queue.scheduleTimeline([("x", 1, 200)]) }
        #expect(queue.count == 3 && queue.scheduledCount == 3)
        #expect(drain(&queue).map(\.payload) == ["first", "middle", "last"])
    }

    @Test func negativeTimesAndMinusZeroOrderAsNumbers() throws {
        // Keys compare the time's bits: negative times and -0 must still sort as the numbers do.
        var queue = EventQueue<String>(startTime: -1e9)
        try queue.schedule("+0 first scheduled", at: 0)
        try queue.schedule("-1.5", at: -1.5)
        try queue.schedule("-0 ties +0, scheduled later", at: -0.0)
        try queue.schedule("-1e9", at: -1e9)
        try queue.schedule("2", at: 2)
        try queue.schedule("-2.5", at: -2.5)
        #expect(drain(&queue).map(\.payload)
                == ["-1e9", "-2.5", "-1.5", "+0 first scheduled", "-0 ties +0, scheduled later", "2"])
    }

    @Test func countAndPeekTrackPendingEvents() throws {
        var queue = EventQueue<Int>(minimumCapacity: 8)
        #expect(queue.isEmpty && queue.peekTime == nil)
        try queue.schedule(1, at: 2)
        try queue.schedule(2, at: 1)
        #expect(queue.count == 2 && queue.peekTime == 1)
        queue.reserveCapacity(1000)
        #expect(queue.count == 2 && queue.scheduledCount == 2)
    }

    @Test func matchesASortedReferenceUnderRandomInterleaving() throws {
        // Coarse times (half seconds up to 10 s ahead) and few priorities, so ties are common.
        try matchesTheReference(span: 10, grain: 0.5, priorities: -2...2, steps: 20_000, seed: 0xC17E_5EED)
    }

    @Test func holdsAndOrdersAMillionEvents() throws {
        var random = SplitMix64(seed: 7)
        var queue = EventQueue<UInt32>(minimumCapacity: 1_000_000)
        for index in 0..<UInt32(1_000_000) {
            try queue.schedule(index, at: Double.random(in: 0..<86_400, using: &random))
        }
        #expect(queue.count == 1_000_000)
        queue._checkInvariants()
        var previous = -Double.infinity
        var popped = 0
        while let (time, _) = queue.popNext() {
            #expect(time >= previous)
            previous = time
            popped += 1
        }
        #expect(popped == 1_000_000)
    }

    @Test func holdPatternKeepsThePendingCount() throws {
        var random = SplitMix64(seed: 11)
        var queue = EventQueue<Int>()
        for index in 0..<1000 { try queue.schedule(index, at: Double.random(in: 0..<1, using: &random)) }
        for _ in 0..<100_000 {
            let next = queue.popNext()
            let (time, payload) = try #require(next)
            try queue.schedule(payload, at: time + Double.random(in: 0..<2, using: &random))
        }
        #expect(queue.count == 1000)
        queue._checkInvariants()
    }

    @Test func negativeTinyAndHugeTimesLeaveInOrder() throws {
        var queue = EventQueue<Int>(startTime: -1e6)
        let times = [-1e6, -3.5, -0.0, 0.0, 1e-300, 2.25, 1e12, -1e-300]
        for (index, time) in times.enumerated() { try queue.schedule(index, at: time) }
        let popped = drain(&queue)
        // -0 and +0 are one time, so those two leave first-in, first-out.
        #expect(popped.map(\.payload) == [0, 1, 7, 2, 3, 4, 5, 6])
        #expect(popped.map(\.time) == [-1e6, -3.5, -1e-300, 0, 0, 1e-300, 2.25, 1e12])
    }
}
