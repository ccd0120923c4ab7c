import Testing
@testable import EventEngine

/// `EventQueue.refills`, `heapCount` and `heapPayload(at:)`: a host learns when the queue moves its next bucket of events
/// into its heap, and which events those are, without changing the queue.
@Suite struct EventQueueRefillTests {
    /// The heap's payloads, sorted.
    private func heap(_ queue: EventQueue<String>) -> [String] {
        (0 ..< queue.heapCount).map { queue.heapPayload(at: $0) }.sorted()
    }

    @Test func aRefillIsCountedAndItsBucketsEventsAreTheHeapsUntilTheNextOne() throws {
        var queue = EventQueue<String>()
        let width = EventQueue<String>.bucketWidth
        // The first event's bucket goes to the heap with it; a bucket ten later waits in the ring.
        for (name, time) in [("a2", 10 * width + 0.5), ("a1", 10 * width + 0.1), ("a3", 10 * width + 0.9),
                             ("b2", 20 * width + 0.3), ("b1", 20 * width + 0.1)] {
            try queue.schedule(name, at: time)
        }
        #expect(queue.refills == 0 && heap(queue) == ["a1", "a2", "a3"])
        #expect(queue.popNext()?.payload == "a1" && queue.popNext()?.payload == "a2")
        #expect(queue.refills == 0 && heap(queue) == ["a3"])

        let before = queue
        #expect(queue.popNext()?.payload == "a3")  // the heap ran empty: the next bucket moved in
        #expect(queue.refills == 1 && heap(queue) == ["b1", "b2"])
        #expect(queue.popNext()?.payload == "b1")
        #expect(queue.refills == 1 && heap(queue) == ["b2"])
        // Looking the heap over changed nothing: a copy taken before pops the same events.
        var copy = before
        #expect([copy.popNext()?.payload, copy.popNext()?.payload, copy.popNext()?.payload] == ["a3", "b1", "b2"])
    }

    @Test func anEventScheduledIntoTheHeapsBucketsJoinsItWithoutARefill() throws {
        var queue = EventQueue<String>()
        let width = EventQueue<String>.bucketWidth
        try queue.schedule("first", at: 4 * width + 0.1)
        try queue.schedule("later", at: 9 * width + 0.8)
        _ = queue.popNext()
        #expect(queue.refills == 1 && heap(queue) == ["later"])
        try queue.schedule("soon", at: 9 * width + 0.4)
        #expect(queue.refills == 1 && heap(queue) == ["later", "soon"])
        #expect(queue.popNext()?.payload == "soon")
    }
}
