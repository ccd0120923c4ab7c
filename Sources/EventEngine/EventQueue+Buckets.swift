// MARK: - The bucketed tier: events later than the heap's buckets
//
// Invariant (with the heap's): a pending event of bucket b = ``bucket(of:)`` of its time is in the heap
// when b < firstRingBucket, in ring slot `Int(b) & (ringSize - 1)` when
// firstRingBucket <= b < firstRingBucket + ringSize, and in `beyond` otherwise; `beyondFirstBucket` is
// the smallest bucket in `beyond` (+infinity when empty); the heap is empty only when the ring and
// `beyond` are. Since `bucket(of:)` never decreases as time grows, every event of a bucket runs after
// every event of an earlier bucket, so the heap's first entry is always the next event.

extension EventQueue {
    /// One bucketed event and the next node of its bucket (-1: the last).
    @usableFromInline
    struct Node {
        @usableFromInline var entry: Entry
        @usableFromInline var next: Int32

        @inlinable @inline(__always)
        init(entry: Entry, next: Int32) {
            self.entry = entry
            self.next = next
        }
    }

    /// Seconds of simulated time per bucket: a city of ~25 events a second keeps ~50 to a bucket.
    @inlinable static var bucketWidth: Double { 2 }
    /// Buckets in the ring: 2¹⁵ of 2 s, 18 hours ahead (a reservation's lead is at most a few hours).
    @inlinable static var ringSize: Int { 1 << 15 }
    /// Buckets are whole numbers below this in size (exact in a `Double`, and an `Int` slot): times beyond
    /// ±2⁵¹ s go to the heap alone.
    @inlinable static var bucketLimit: Double { 0x1p50 }

    /// The bucket of a time: `time / bucketWidth` rounded down, a whole number. Never decreases as time grows
    /// (multiplication by a positive constant and rounding down are both monotonic).
    @inlinable @inline(__always)
    static func bucket(of time: Double) -> Double { (time * (1 / bucketWidth)).rounded(.down) }

    /// `insert` for an event of bucket `bucket >= firstRingBucket`.
    @inlinable
    mutating func insertLater(_ entry: Entry, bucket: Double) {
        if entries.isEmpty {
            // Nothing is bucketed (invariant): the heap takes over every bucket up to this one.
            firstRingBucket = abs(bucket) < Self.bucketLimit ? bucket + 1 : .infinity
            entries.append(entry)
            return
        }
        if bucket < firstRingBucket + Double(Self.ringSize) {
            link(entry, bucket: bucket)
        } else {
            beyond.append(entry)
            beyondFirstBucket = min(beyondFirstBucket, bucket)
        }
    }

    /// Adds the entry to the ring slot of `bucket` (inside the ring's window).
    @inlinable
    mutating func link(_ entry: Entry, bucket: Double) {
        if ring.isEmpty { ring = ContiguousArray(repeating: -1, count: Self.ringSize) }
        let slot = Int(bucket) & (Self.ringSize &- 1)
        let node: Int32
        if freeNode >= 0 {
            node = freeNode
            freeNode = nodes[Int(node)].next
            nodes[Int(node)] = Node(entry: entry, next: ring[slot])
        } else {
            node = Int32(truncatingIfNeeded: nodes.count)
            nodes.append(Node(entry: entry, next: ring[slot]))
        }
        ring[slot] = node
        ringCount &+= 1
    }

    /// The heap has run empty with events still bucketed: moves the next non-empty bucket into it.
    @inlinable
    mutating func refillHeap() {
        if ringCount == 0 {
            // Only events beyond the ring: the ring's window jumps to the earliest of them.
            guard abs(beyondFirstBucket) < Self.bucketLimit else {
                for entry in beyond { entries.append(entry); siftUpLast() }
                beyond.removeAll()
                beyondFirstBucket = .infinity
                firstRingBucket = .infinity
                return
            }
            firstRingBucket = beyondFirstBucket
            bringBeyondIntoRing()
        }
        var slot = Int(firstRingBucket) & (Self.ringSize &- 1)
        while ring[slot] < 0 {
            firstRingBucket += 1
            slot = (slot &+ 1) & (Self.ringSize &- 1)
        }
        var node = ring[slot]
        ring[slot] = -1
        while node >= 0 {
            entries.append(nodes[Int(node)].entry)
            siftUpLast()
            let next = nodes[Int(node)].next
            nodes[Int(node)].next = freeNode
            freeNode = node
            node = next
            ringCount &-= 1
        }
        firstRingBucket += 1
        if beyondFirstBucket < firstRingBucket + Double(Self.ringSize) { bringBeyondIntoRing() }
    }

    /// Moves the events of `beyond` whose bucket is now inside the ring's window into their slots.
    @inlinable
    mutating func bringBeyondIntoRing() {
        let end = firstRingBucket + Double(Self.ringSize)
        var kept = ContiguousArray<Entry>()
        var keptFirst = Double.infinity
        for entry in beyond {
            let bucket = Self.bucket(of: entry.key.time)
            if bucket < end {
                link(entry, bucket: bucket)
            } else {
                kept.append(entry)
                keptFirst = min(keptFirst, bucket)
            }
        }
        beyond = kept
        beyondFirstBucket = keptFirst
    }

    /// Traps unless every bucketed event is where the invariant puts it.
    func _checkBucketInvariants() {
        var linked = 0
        for slot in ring.indices {
            var node = ring[slot]
            while node >= 0 {
                let bucket = Self.bucket(of: nodes[Int(node)].entry.key.time)
                precondition(bucket >= firstRingBucket && bucket < firstRingBucket + Double(Self.ringSize)
                             && Int(bucket) & (Self.ringSize - 1) == slot, "event of bucket \(bucket) in slot \(slot)")
                precondition(nodes[Int(node)].entry.key.time >= clock, "bucketed event before now")
                linked += 1
                node = nodes[Int(node)].next
            }
        }
        precondition(linked == ringCount, "ring counts \(ringCount) events, links \(linked)")
        for entry in beyond {
            let bucket = Self.bucket(of: entry.key.time)
            precondition(bucket >= firstRingBucket + Double(Self.ringSize) && bucket >= beyondFirstBucket,
                         "event of bucket \(bucket) beyond the ring")
        }
        for entry in entries {
            precondition(Self.bucket(of: entry.key.time) < firstRingBucket, "heap event of a bucketed bucket")
        }
        precondition(!entries.isEmpty || (ringCount == 0 && beyond.isEmpty), "empty heap with events bucketed")
    }
}

extension EventQueue.Node: Sendable where Payload: Sendable {}
