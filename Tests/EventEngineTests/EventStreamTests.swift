import TestSupport
import Testing
@testable import EventEngine

/// `scheduleInStream`: the stream's pending event leaves in exactly the order it would have left had it been
/// scheduled as any other event, interleaved with heap, bucketed and timeline events.
@Suite struct EventStreamTests {
    /// Runs an arrival process (each arrival schedules the next, sometimes two at once) with other events
    /// scheduled around it, into two queues: one through the stream and one event by event. Returns both pop orders.
    private func popOrders(seed: UInt64, arrivals: Int) throws -> (stream: [Int], oneByOne: [Int]) {
        var random = SplitMix64(seed: seed)
        var viaStream = EventQueue<Int>(), oneByOne = EventQueue<Int>()
        // A timeline of coarse times and equal priorities, so ties with arrivals are common.
        let planned = (0..<500).map { i in (payload: -1 - i, time: Double(Int.random(in: 0..<400, using: &random)), priority: 0) }
        try viaStream.scheduleTimeline(planned)
        try oneByOne.scheduleTimeline(planned)
        try viaStream.scheduleInStream(0, at: 0)
        try oneByOne.schedule(0, at: 0)
        var orders: ([Int], [Int]) = ([], [])
        var next = 1
        while let a = viaStream.popNext(), let b = oneByOne.popNext() {
            orders.0.append(a.payload)
            orders.1.append(b.payload)
            // O(queue) each: on every pop this test took a minute of a debug build; the order check is every pop.
            if orders.0.count < 64 || orders.0.count % 16 == 0 { viaStream._checkInvariants() }
            #expect(viaStream.count == oneByOne.count && viaStream.peekTime == oneByOne.peekTime)
            guard a.payload >= 0, next < arrivals else { continue }
            // The next arrival (whole seconds: ties), at times a second one while the first is pending, and
            // an event of the arrival's own (a ride: now, soon, or hours ahead beyond the ring).
            for _ in 0..<(Int.random(in: 0..<8, using: &random) == 0 ? 2 : 1) {
                let time = a.time + Double(Int.random(in: 0..<3, using: &random))
                let priority = Int.random(in: 0...1, using: &random)
                try viaStream.scheduleInStream(next, at: time, priority: priority)
                try oneByOne.schedule(next, at: time, priority: priority)
                next += 1
            }
            let later = a.time + [0, 1, 7, 100_000][Int.random(in: 0..<4, using: &random)]
            try viaStream.schedule(1_000_000 + next, at: later)
            try oneByOne.schedule(1_000_000 + next, at: later)
        }
        #expect(viaStream.isEmpty && oneByOne.isEmpty && viaStream.popNext() == nil)
        return orders
    }

    @Test func streamEventsInterleaveWithEveryOtherEventAsIfScheduledOneByOne() throws {
        for seed in UInt64(1)...5 {
            let orders = try popOrders(seed: seed, arrivals: 3_000)
            #expect(orders.stream == orders.oneByOne)
            #expect(orders.stream.count > 6_000)
        }
    }

    @Test func aStreamEventIsCountedPeekedAndCheckedLikeAnyOther() throws {
        var queue = EventQueue<String>()
        try queue.scheduleInStream("arrival", at: 5)
        try queue.schedule("ride", at: 7)
        #expect(queue.count == 2 && queue.peekTime == 5 && !queue.isEmpty)
        #expect(queue.popNext()?.payload == "arrival")
        #expect(throws: EventEngineError.scheduledInThePast(time: 4, now: 5)) { try queue.scheduleInStream("late", at: 4) }
        #expect(queue.count == 1 && queue.peekTime == 7)
        #expect(queue.popNext()?.payload == "ride" && queue.isEmpty)
    }
}
