// MARK: - The stream: one pending event beside the heap

extension EventQueue {
    /// Schedules the next event of the queue's stream: a process with one event pending at a time, each
    /// scheduling the next when it runs (a city's customer arrivals). It leaves in exactly the order
    /// ``schedule(_:at:priority:)`` would give it (the same key, numbered from the same sequence), but it
    /// waits beside the heap: a comparison per pop instead of a bucket link, a heap insertion and a removal,
    /// for what is most of a busy city's events. While one stream event is pending, another is scheduled
    /// as any event is.
    ///
    /// - Throws: ``EventEngineError`` as ``schedule(_:at:priority:)`` does.
    /// - Complexity: O(1)
    @inlinable
    public mutating func scheduleInStream(_ payload: Payload, at time: Double, priority: Int = 0) throws(EventEngineError) {
        try check(time, priority: priority)
        let entry = Entry(key: EventKey(time: time, priority: priority, sequence: nextSequence), payload: payload)
        nextSequence &+= 1
        if streamNext == nil { streamNext = entry } else { insert(entry) }
    }
}
