import TestSupport
import Testing
@testable import EventEngine

/// Schedules and pops at random against a sorted reference, with times up to `span` seconds ahead
/// rounded to `grain` (so ties are common), checking the queue's invariants as it goes.
func matchesTheReference(span: Double, grain: Double, priorities: ClosedRange<Int> = -1...1, steps: Int,
                         seed: UInt64, scheduleShare: Double = 0.55) throws {
    var random = SplitMix64(seed: seed)
    var queue = EventQueue<Int>()
    var reference: [(time: Double, priority: Int, sequence: Int)] = []
    var sequence = 0
    for step in 0..<steps {
        if reference.isEmpty || Double.random(in: 0..<1, using: &random) < scheduleShare {
            let ahead = (Double.random(in: 0..<span, using: &random) / grain).rounded(.down) * grain
            let priority = Int.random(in: priorities, using: &random)
            try queue.schedule(sequence, at: queue.now + ahead, priority: priority)
            reference.append((queue.now + ahead, priority, sequence))
            sequence += 1
        } else {
            reference.sort { ($0.time, $0.priority, $0.sequence) < ($1.time, $1.priority, $1.sequence) }
            let expected = reference.removeFirst()
            let next = queue.popNext()
            let popped = try #require(next)
            #expect(popped.time == expected.time && popped.payload == expected.sequence)
        }
        #expect(queue.count == reference.count)
        if step % 97 == 0 { queue._checkInvariants() }  // O(ring) each: every step would take minutes
    }
    queue._checkInvariants()
    reference.sort { ($0.time, $0.priority, $0.sequence) < ($1.time, $1.priority, $1.sequence) }
    var popped: [Int] = []
    while let next = queue.popNext() { popped.append(next.payload) }
    #expect(popped == reference.map(\.sequence))
}

/// The bucketed tier of `EventQueue`: events later than the heap's buckets wait in a ring of buckets (or
/// beyond it) and must still leave in exact (time, priority, sequence) order.
@Suite struct EventBucketTests {
    @Test func eventsWithinTheRingLeaveInKeyOrder() throws {
        // Seconds to hours ahead, on whole seconds: many events share a bucket and a time.
        try matchesTheReference(span: 4 * 3600, grain: 1, steps: 20_000, seed: 1)
    }

    @Test func eventsDaysAheadBeyondTheRingLeaveInKeyOrder() throws {
        // Up to 3 days ahead: past the ring's 18 hours, so events wait beyond it and come in as it turns.
        try matchesTheReference(span: 3 * 86_400, grain: 60, steps: 20_000, seed: 2)
    }

    @Test func eventsOnBucketEdgesLeaveInKeyOrder() throws {
        // Times on exact multiples of the bucket width and just either side of them.
        try matchesTheReference(span: 20, grain: EventQueue<Int>.bucketWidth / 4, steps: 20_000, seed: 3)
    }

    @Test func eventsScheduledIntoTheBucketBeingDrainedLeaveInKeyOrderAmongItsEvents() throws {
        // As many pops as schedules, a few seconds ahead: the queue stays small (a few dozen events to a
        // bucket), and many events are scheduled into a bucket already moved into the heap while its events
        // leave, where the other tests schedule mostly into later buckets.
        try matchesTheReference(span: 10, grain: EventQueue<Int>.bucketWidth / 8, steps: 20_000, seed: 4,
                                scheduleShare: 0.5)
    }

    @Test func anEventFarAheadOfAnEmptyQueueComesBeforeLaterOnesAndAfterEarlierOnes() throws {
        var queue = EventQueue<String>()
        try queue.schedule("day 5", at: 5 * 86_400)
        try queue.schedule("hour 1", at: 3600)
        try queue.schedule("day 3", at: 3 * 86_400)
        try queue.schedule("day 5 again", at: 5 * 86_400)
        try queue.schedule("second 1", at: 1)
        queue._checkInvariants()
        var order: [String] = []
        while let next = queue.popNext() {
            order.append(next.payload)
            if next.payload == "hour 1" { try queue.schedule("day 4", at: 4 * 86_400) }
            queue._checkInvariants()
        }
        #expect(order == ["second 1", "hour 1", "day 3", "day 4", "day 5", "day 5 again"])
    }

    @Test func timesTooLargeForBucketsStillLeaveInOrder() throws {
        var queue = EventQueue<Int>(startTime: -1e300)
        let times = [1e300, 5, -1e300, 1e200, 7.5, -3, 1e20, 1e300, 0x1p52, 0x1p51 + 2]
        for (index, time) in times.enumerated() { try queue.schedule(index, at: time) }
        queue._checkInvariants()
        var popped: [Int] = []
        while let next = queue.popNext() {
            popped.append(next.payload)
            queue._checkInvariants()
        }
        #expect(popped == [2, 5, 1, 4, 9, 8, 6, 3, 0, 7])
        try queue.schedule(10, at: 1e300 + 1e285)
        try queue.schedule(11, at: 1e300)
        #expect(queue.popNext()?.payload == 11)
        #expect(queue.popNext()?.payload == 10)

        // Bucketed first, then only events too far for buckets are left: they go to the heap.
        var later = EventQueue<Int>()
        for (index, time) in [5, 1e300, 1e20, 6, 0x1p60].enumerated() { try later.schedule(index, at: time) }
        var order: [Int] = []
        while let next = later.popNext() {
            order.append(next.payload)
            later._checkInvariants()
        }
        #expect(order == [0, 3, 4, 2, 1])
    }

    @Test func peekSeesABucketedEventOnceTheHeapEmpties() throws {
        var queue = EventQueue<Int>()
        try queue.schedule(1, at: 10)
        try queue.schedule(2, at: 50_000)
        try queue.schedule(3, at: 200_000)
        #expect(queue.peekTime == 10)
        _ = queue.popNext()
        #expect(queue.peekTime == 50_000 && queue.count == 2)
        _ = queue.popNext()
        #expect(queue.peekTime == 200_000 && queue.count == 1)
        _ = queue.popNext()
        #expect(queue.peekTime == nil && queue.isEmpty)
    }

    @Test func bucketsOfManyBlocksLeaveInKeyOrderAndReuseTheirBlocks() throws {
        // 1,000 events in each of a few buckets (many blocks each), in shuffled times, twice over: the
        // second round's buckets are stored in the blocks the first round's freed.
        let perBucket = 1_000, buckets = 5
        var random = SplitMix64(seed: 7)
        var queue = EventQueue<Int>()
        try queue.schedule(-1, at: 0)
        var blocksAfterFirstRound = 0
        for round in 0..<2 {
            let width = EventQueue<Int>.bucketWidth
            let base = ((queue.now / width).rounded(.down) + 50) * width  // on a bucket's start
            var times: [(Double, Int)] = []
            for bucket in 0..<buckets {
                for index in 0..<perBucket {
                    let offset = Double.random(in: 0..<width, using: &random)
                    times.append((base + Double(bucket) * 10 + offset, round * 10_000 + bucket * perBucket + index))
                }
            }
            times.shuffle(using: &random)
            for (time, payload) in times { try queue.schedule(payload, at: time) }
            queue._checkInvariants()
            let blocksAfterScheduling = queue.blockNext.count
            if round == 1 { #expect(blocksAfterScheduling == blocksAfterFirstRound) }
            blocksAfterFirstRound = blocksAfterScheduling
            var popped: [Int] = []
            while let next = queue.popNext() {
                if next.payload >= 0 { popped.append(next.payload) }
                if popped.count % 997 == 0 { queue._checkInvariants() }
            }
            let expected = times.sorted { $0.0 < $1.0 }.map(\.1)
            #expect(popped == expected)
            queue._checkInvariants()
            try queue.schedule(-1, at: queue.now)
        }
    }
}

