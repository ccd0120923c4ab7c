/// A priority queue of future events and the clock they move.
///
/// Events leave in the order of (time, priority, sequence number): earliest
/// time first, then lowest priority value, then the order in which they were
/// scheduled. The sequence number is given at ``schedule(_:at:priority:)``,
/// so equal-time, equal-priority events come out first-in, first-out and the
/// result never depends on the heap's layout.
///
/// Invariants: every pending event's time is finite and at or after ``now``;
/// ``now`` never decreases; ``now`` is the time of the event popped last (or
/// the start time before the first pop).
///
/// The host drives it in a plain loop; the hot path is inlinable, generic
/// without existentials, and allocates nothing per event once capacity is
/// reserved:
///
/// ```swift
/// var queue = EventQueue<Job>()
/// try queue.schedule(.arrive(1), at: 0.5)
/// while let (time, job) = queue.popNext() {
///     try queue.schedule(.leave(job.id), at: time + 3)
/// }
/// ```
///
/// Storage is two tiers. Time is cut into buckets of ``bucketWidth`` seconds.
/// Events of the buckets before ``firstRingBucket`` are in a 4-ary min-heap in
/// one flat array of (key, payload) entries: half the depth of a binary heap,
/// and the four children of a node sit next to each other in memory. Later
/// events wait unsorted in their bucket (a ring of ``ringSize`` buckets, and a
/// list beyond it), a bucket's events side by side in blocks of ``blockSize``;
/// when the heap runs empty, the next non-empty bucket moves into it. Every
/// event of a bucket is later than every event of an earlier
/// one, so the heap only ever orders the next few seconds of events: a few
/// levels that stay in cache, instead of a day's reservations and rides.
/// (Keys packed into 16 bytes apart from the payloads, or payloads left in a
/// slab, measured slower: see Results/bench/speed.md.)
/// Events known in bulk up front (a day's shift starts and ends) can go into a
/// sorted *timeline* beside the heap instead (``scheduleTimeline(_:)``): they
/// leave in exactly the same order as if each had been scheduled alone, but
/// they do not deepen the heap that every other event sifts through. Likewise
/// the one pending event of a *stream* (``scheduleInStream(_:at:priority:)``:
/// an arrival process, whose each event schedules the next) waits beside them.
public struct EventQueue<Payload> {
    /// One pending event: its ordering key and what the host attached to it.
    @usableFromInline
    struct Entry {
        @usableFromInline var key: EventKey
        @usableFromInline var payload: Payload

        @inlinable @inline(__always)
        init(key: EventKey, payload: Payload) {
            self.key = key
            self.payload = payload
        }
    }

    /// The heap: `entries[0]` runs next; each entry runs before its children
    /// `4i+1 ... 4i+4`. It holds exactly the pending (non-timeline) events of the buckets before
    /// `firstRingBucket`, and it is empty only when no event waits in a bucket either.
    @usableFromInline var entries: ContiguousArray<Entry>
    /// The first bucket (a whole number: ``bucket(of:)``) not yet moved into the heap; `-infinity` before
    /// the first event, `+infinity` once times are too large for buckets (everything then goes to the heap).
    @usableFromInline var firstRingBucket: Double
    /// Per bucket `b` of `firstRingBucket ..< firstRingBucket + ringSize`, at `Int(b) & (ringSize - 1)`:
    /// its newest block of events and how many that block holds (``BucketHead``). Empty until an event is bucketed.
    @usableFromInline var ring: ContiguousArray<BucketHead>
    /// Bucketed events in blocks of ``blockSize``: block `k` is `blocks[k * blockSize ..< (k + 1) * blockSize]`.
    /// Places not in use hold stale copies of earlier entries (a payload's references live on until reused).
    @usableFromInline var blocks: ContiguousArray<Entry>
    /// Per block, the bucket's next (older, full) block, -1 after its last; for a free block, the next free one.
    @usableFromInline var blockNext: ContiguousArray<Int32>
    /// The first free block, -1 when none is.
    @usableFromInline var freeBlock: Int32
    /// Events in the ring's buckets.
    @usableFromInline var ringCount: Int
    /// Events of buckets from `firstRingBucket + ringSize` on, unsorted, and the smallest of their buckets.
    @usableFromInline var beyond: ContiguousArray<Entry>
    @usableFromInline var beyondFirstBucket: Double
    /// Events scheduled in bulk, in key order; `timeline[timelineHead...]` are pending.
    @usableFromInline var timeline: ContiguousArray<Entry>
    /// The next pending timeline entry.
    @usableFromInline var timelineHead: Int
    /// The pending event of the stream (``scheduleInStream(_:at:priority:)``), nil when none is.
    @usableFromInline var streamNext: Entry?
    /// Sequence number for the next scheduled event.
    @usableFromInline var nextSequence: UInt64
    /// Backing store of ``now``.
    @usableFromInline var clock: Double
    /// How many times a bucket has been moved into the heap (``refills``).
    @usableFromInline var refillCounter = 0

    /// Creates an empty queue whose clock starts at `startTime`.
    ///
    /// - Parameters:
    ///   - startTime: the initial value of ``now``, in seconds. Must be finite.
    ///   - minimumCapacity: pending events to make room for up front.
    public init(startTime: Double = 0, minimumCapacity: Int = 0) {
        precondition(startTime.isFinite, "EventQueue start time must be finite, got \(startTime)")
        entries = []
        entries.reserveCapacity(minimumCapacity)
        firstRingBucket = -.infinity
        ring = []
        blocks = []
        blockNext = []
        freeBlock = -1
        ringCount = 0
        beyond = []
        beyondFirstBucket = .infinity
        timeline = []
        timelineHead = 0
        streamNext = nil
        nextSequence = 0
        clock = startTime
    }

    /// The current simulation time in seconds: the time of the last popped event.
    @inlinable
    public var now: Double { clock }

    /// The number of pending events.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var count: Int {
        entries.count &+ ringCount &+ beyond.count &+ timeline.count &- timelineHead &+ (streamNext == nil ? 0 : 1)
    }

    /// Whether no event is pending.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var isEmpty: Bool { entries.isEmpty && timelineHead == timeline.count && streamNext == nil }

    /// The time of the event ``popNext()`` would return, or `nil` when empty.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var peekTime: Double? {
        var next = entries.first?.key.time
        if timelineHead < timeline.count { next = min(timeline[timelineHead].key.time, next ?? .infinity) }
        if let streamNext { next = min(streamNext.key.time, next ?? .infinity) }
        return next
    }

    /// The payload of the heap's first event, without removing it: the next event to leave unless the
    /// timeline's or the stream's goes first, or an earlier one is scheduled meanwhile. A host can start
    /// loading what that event will touch while it handles the current one.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var heapFirstPayload: Payload? { entries.first?.payload }

    /// How many times the queue has moved its next bucket of events (those due within ``bucketWidth`` seconds
    /// of each other) into its heap. A host that sees it change may look those events over
    /// (``heapPayload(at:)``), for example to start loading what they will read.
    @inlinable
    public var refills: Int { refillCounter }

    /// The number of events now in the heap: ``heapPayload(at:)`` takes `0 ..< heapCount`.
    @inlinable
    public var heapCount: Int { entries.count }

    /// The payload of the heap's event at `index` (`0 ..< heapCount`), in the heap's own order, which is no
    /// particular one past the first. Changes nothing. By index, not through a closure: a host that owns the
    /// queue in a class and looks the heap over with a closure capturing that class has Swift copy the whole
    /// queue (its seven arrays retained and released) for the look.
    @inlinable
    public func heapPayload(at index: Int) -> Payload { entries[index].payload }

    /// The number of events scheduled so far, popped or not.
    @inlinable
    public var scheduledCount: UInt64 { nextSequence }

    /// Makes room for `minimumCapacity` pending events in the heap without reallocating.
    ///
    /// - Complexity: O(n)
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        entries.reserveCapacity(minimumCapacity)
    }

    /// Schedules `payload` to happen at `time`.
    ///
    /// - Parameters:
    ///   - payload: what the host wants back from ``popNext()``.
    ///   - time: simulation time in seconds; finite and not before ``now``.
    ///   - priority: among events at the same time, lower values run first; -128 through 127.
    /// - Throws: ``EventEngineError/scheduledInThePast(time:now:)`` when
    ///   `time < now`, ``EventEngineError/invalidTime(_:)`` when `time` is NaN
    ///   or infinite, ``EventEngineError/priorityOutOfRange(_:)`` for a priority
    ///   outside -128 through 127. The queue is unchanged when it throws.
    /// - Complexity: O(log₄ n); amortised O(1) allocation.
    @inlinable
    public mutating func schedule(_ payload: Payload, at time: Double, priority: Int = 0) throws(EventEngineError) {
        try check(time, priority: priority)
        let key = EventKey(time: time, priority: priority, sequence: nextSequence)
        nextSequence &+= 1
        insert(Entry(key: key, payload: payload))
    }

    /// Puts a new entry in the heap, or in its bucket when that bucket is not yet the heap's.
    @inlinable @inline(__always)
    mutating func insert(_ entry: Entry) {
        let bucket = Self.bucket(of: entry.key.time)
        if bucket < firstRingBucket {
            entries.append(entry)
            siftUpLast()
        } else {
            insertLater(entry, bucket: bucket)
        }
    }

    /// Throws unless `time` is finite and not before ``now`` and `priority` is one a key holds.
    @inlinable @inline(__always)
    func check(_ time: Double, priority: Int) throws(EventEngineError) {
        guard EventKey.priorities.contains(priority) else { throw .priorityOutOfRange(priority) }
        precondition(nextSequence < EventKey.sequenceLimit, "more than 2^56 events scheduled")
        // One comparison rejects both the past and NaN on the common path.
        guard time >= clock, time < .infinity else {
            if time.isNaN || time.isInfinite { throw .invalidTime(time) }
            throw .scheduledInThePast(time: time, now: clock)
        }
    }

    /// Schedules many events at once, in the given order, as if each were passed to
    /// ``schedule(_:at:priority:)`` in turn: they get the next sequence numbers and leave in
    /// the same order. They are kept sorted beside the heap, so a long timeline known up
    /// front costs one sort instead of deepening the heap for the whole run.
    ///
    /// - Throws: as ``schedule(_:at:priority:)``, for the first bad time; nothing is scheduled then.
    /// - Complexity: O(k log k) for k new events, plus O(r) for r timeline events still pending.
    /// (Inlinable so that it is specialised for the host's payload: the generic version moved every
    /// entry through the payload's value witnesses.)
    @inlinable
    public mutating func scheduleTimeline(_ events: [(payload: Payload, time: Double, priority: Int)]) throws(EventEngineError) {
        for event in events { try check(event.time, priority: event.priority) }
        var merged = ContiguousArray(timeline[timelineHead...])
        merged.reserveCapacity(merged.count + events.count)
        for event in events {
            merged.append(Entry(key: EventKey(time: event.time, priority: event.priority, sequence: nextSequence),
                                payload: event.payload))
            nextSequence &+= 1
        }
        // Keys are unique, so any sort gives the one order. The keys are sorted on their own (a concrete
        // type, so the sort is specialised here) and the entries moved after them: sorting the entries
        // with a closure ran the standard library's generic sort, ~240 instructions a comparison
        // (a day of city-scale's 26,000 shift events cost 95 M instructions).
        var order = ContiguousArray<(high: UInt64, low: UInt64, index: Int32)>()
        order.reserveCapacity(merged.count)
        for (index, entry) in merged.enumerated() { order.append((entry.key.high, entry.key.low, Int32(index))) }
        order.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        timeline = ContiguousArray(order.lazy.map { merged[Int($0.index)] })
        timelineHead = 0
    }

    /// Schedules `payload` to happen `delay` seconds after ``now``.
    ///
    /// - Throws: as ``schedule(_:at:priority:)``; a negative delay is in the past.
    /// - Complexity: O(log₄ n)
    @inlinable
    public mutating func schedule(_ payload: Payload, after delay: Double, priority: Int = 0) throws(EventEngineError) {
        try schedule(payload, at: clock + delay, priority: priority)
    }

    /// Removes the next event, advances ``now`` to its time and returns it.
    ///
    /// - Returns: the event's time and payload, or `nil` when nothing is pending
    ///   (the clock then stays where it is).
    /// - Complexity: O(log₄ n)
    @inlinable
    public mutating func popNext() -> (time: Double, payload: Payload)? {
        if let stream = streamNext, entries.isEmpty || stream.key.runsBefore(entries[0].key),
           timelineHead == timeline.count || stream.key.runsBefore(timeline[timelineHead].key) {
            streamNext = nil
            clock = stream.key.time
            return (stream.key.time, stream.payload)
        }
        if timelineHead < timeline.count, entries.isEmpty || timeline[timelineHead].key.runsBefore(entries[0].key) {
            let entry = timeline[timelineHead]
            timelineHead &+= 1
            clock = entry.key.time
            return (entry.key.time, entry.payload)
        }
        guard let entry = removeFirst() else { return nil }
        if entries.isEmpty, ringCount > 0 || !beyond.isEmpty { refillHeap() }
        clock = entry.key.time
        return (entry.key.time, entry.payload)
    }

    /// Moves the clock forward to `time` without popping anything.
    ///
    /// - Precondition: `now <= time <= peekTime` (a pending event may not
    ///   fall into the past).
    @inlinable
    mutating func advanceClock(to time: Double) {
        precondition(time >= clock && time <= (peekTime ?? .infinity), "clock cannot move past a pending event or backwards")
        clock = time
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Entry: Sendable where Payload: Sendable {}
