import TestSupport
import Testing
@testable import EventEngine

/// `scheduleTimeline`: bulk events kept beside the heap leave in exactly the order they would
/// have left had each been scheduled alone, interleaved with events scheduled later.
@Suite struct EventTimelineTests {
    /// Schedules the same bulk events and the same later events into two queues, one through the
    /// timeline and one event by event, and returns both pop orders.
    private func popOrders(seed: UInt64, bulk: Int, later: Int) throws -> (timeline: [Int], oneByOne: [Int]) {
        var random = SplitMix64(seed: seed)
        // Coarse times and few priorities, so ties between the timeline and the heap are common.
        let planned = (0..<bulk).map { i in
            (payload: i, time: Double(Int.random(in: 0..<200, using: &random)) * 0.5, priority: Int.random(in: 0...1, using: &random))
        }
        var withTimeline = EventQueue<Int>(), oneByOne = EventQueue<Int>()
        try withTimeline.scheduleTimeline(planned)
        for event in planned { try oneByOne.schedule(event.payload, at: event.time, priority: event.priority) }
        var orders: ([Int], [Int]) = ([], [])
        var next = bulk
        while let a = withTimeline.popNext(), let b = oneByOne.popNext() {
            orders.0.append(a.payload)
            orders.1.append(b.payload)
            // O(queue) each: on every pop this test took half a minute of a debug build; the order check is every pop.
            if orders.0.count < 64 || orders.0.count % 16 == 0 { withTimeline._checkInvariants() }
            #expect(withTimeline.count == oneByOne.count && withTimeline.peekTime == oneByOne.peekTime)
            if next < bulk + later, Bool.random(using: &random) {
                let time = a.time + Double(Int.random(in: 0..<6, using: &random)) * 0.5
                let priority = Int.random(in: 0...1, using: &random)
                try withTimeline.schedule(next, at: time, priority: priority)
                try oneByOne.schedule(next, at: time, priority: priority)
                next += 1
            }
        }
        #expect(withTimeline.isEmpty && oneByOne.isEmpty)
        return orders
    }

    @Test func timelineEventsInterleaveWithHeapEventsAsIfScheduledOneByOne() throws {
        for seed in UInt64(1)...5 {
            let orders = try popOrders(seed: seed, bulk: 2_000, later: 3_000)
            #expect(orders.timeline == orders.oneByOne)
            #expect(orders.timeline.count == orders.oneByOne.count && orders.timeline.count > 2_000)
        }
    }

    @Test func aSecondTimelineMergesWithTheRestOfTheFirst() throws {
        var queue = EventQueue<String>()
        try queue.scheduleTimeline([("a", 1, 0), ("c", 3, 0)])
        #expect(queue.popNext()?.payload == "a")
        try queue.scheduleTimeline([("b", 2, 0), ("d", 3, 0)])
        try queue.schedule("e", at: 3)
        #expect([queue.popNext(), queue.popNext(), queue.popNext(), queue.popNext()].map { $0?.payload } == ["b", "c", "d", "e"])
        #expect(queue.popNext() == nil)
    }

    @Test func aTimelineWithATimeInThePastSchedulesNothing() throws {
        var queue = EventQueue<Int>()
        try queue.schedule(0, at: 5)
        _ = queue.popNext()
        #expect(throws: EventEngineError.scheduledInThePast(time: 4, now: 5)) {
            try queue.scheduleTimeline([(1, 6, 0), (2, 4, 0)])
        }
        #expect(queue.isEmpty)
    }
}
