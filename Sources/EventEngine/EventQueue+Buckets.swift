import CCacheHint

// MARK: - The bucketed tier: events later than the heap's buckets
//
// Invariant (with the heap's): a pending event of bucket b = ``bucket(of:)`` of its time is in the heap
// when b < firstRingBucket, in a block of ring slot `Int(b) & (ringSize - 1)` when
// firstRingBucket <= b < firstRingBucket + ringSize, and in `beyond` otherwise; `beyondFirstBucket` is
// the smallest bucket in `beyond` (+infinity when empty); the heap is empty only when the ring and
// `beyond` are. Since `bucket(of:)` never decreases as time grows, every event of a bucket runs after
// every event of an earlier bucket, so the heap's first entry is always the next event.

extension EventQueue {
    /// Where a ring bucket's events are: its newest block (-1: the bucket is empty) and the entries that
    /// block holds (1 ... ``blockSize``); every older block of the bucket, linked by `blockNext`, is full.
    @usableFromInline
    struct BucketHead: Sendable {
        @usableFromInline var block: Int32
        @usableFromInline var fill: Int32

        @inlinable @inline(__always)
        init(block: Int32, fill: Int32) {
            self.block = block
            self.fill = fill
        }

        @inlinable static var empty: BucketHead { BucketHead(block: -1, fill: 0) }
    }

    /// Events per block of a bucket. A bucket's events sit together in blocks instead of one node each,
    /// so moving a bucket into the heap follows one link per block: the per-node links were a chain of
    /// cache misses that took 7 % of a megacity run (Results/bench/speed.md, fourteenth pass).
    @inlinable static var blockSize: Int { 8 }

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

    /// Adds the entry to the ring slot of `bucket` (inside the ring's window): into the bucket's newest
    /// block, or a new one when that is full.
    @inlinable
    mutating func link(_ entry: Entry, bucket: Double) {
        if ring.isEmpty { ring = ContiguousArray(repeating: .empty, count: Self.ringSize) }
        let slot = Int(bucket) & (Self.ringSize &- 1)
        var head = ring[slot]
        if head.block < 0 || Int(head.fill) == Self.blockSize {
            let block: Int32
            if freeBlock >= 0 {
                block = freeBlock
                freeBlock = blockNext[Int(block)]
                blockNext[Int(block)] = head.block
            } else {
                // New blocks, an eighth more at a time (at least 4), filled with copies of the entry until their
                // places are used: this one, and the rest onto the free list.
                block = Int32(truncatingIfNeeded: blockNext.count)
                let added = max(4, blockNext.count >> 3)
                blocks.append(contentsOf: repeatElement(entry, count: added &* Self.blockSize))
                blockNext.append(head.block)
                for extra in 1 ..< added {
                    blockNext.append(freeBlock)
                    freeBlock = block &+ Int32(truncatingIfNeeded: extra)
                }
            }
            head = BucketHead(block: block, fill: 0)
        }
        blocks[Int(head.block) &* Self.blockSize &+ Int(head.fill)] = entry
        head.fill &+= 1
        ring[slot] = head
        ringCount &+= 1
    }

    /// The heap has run empty with events still bucketed: moves the next non-empty bucket into it.
    @inlinable
    mutating func refillHeap() {
        refillCounter &+= 1
        if ringCount == 0 {
            // Only events beyond the ring: the ring's window jumps to the earliest of them.
            guard abs(beyondFirstBucket) < Self.bucketLimit else {
                entries.append(contentsOf: beyond)  // into the empty heap, ordered once as a bucket is below
                heapify()
                beyond.removeAll()
                beyondFirstBucket = .infinity
                firstRingBucket = .infinity
                return
            }
            firstRingBucket = beyondFirstBucket
            bringBeyondIntoRing()
        }
        var slot = Int(firstRingBucket) & (Self.ringSize &- 1)
        while ring[slot].block < 0 {
            firstRingBucket += 1
            slot = (slot &+ 1) & (Self.ringSize &- 1)
        }
        let head = ring[slot]
        ring[slot] = .empty
        // A bucket of one block is read at once: only longer chains gain from asking for every block first.
        if blockNext[Int(head.block)] >= 0 { prefetchBlocks(from: head.block) }
        // The bucket's entries go in block by block, one append of a block's slice each, and the heap is put in
        // order once at the end (Floyd's bottom-up build: O(k) for the k entries, the heap being empty here, as
        // `popNext` refills only then), where appending and sifting up each entry tested the heap's buffer for
        // uniqueness twice an entry. Keys are unique, so the events leave in the same order either way.
        var block = head.block
        var fill = Int(head.fill)
        while block >= 0 {
            let first = Int(block) &* Self.blockSize
            entries.append(contentsOf: blocks[first ..< first &+ fill])
            ringCount &-= fill
            let next = blockNext[Int(block)]
            blockNext[Int(block)] = freeBlock
            freeBlock = block
            block = next
            fill = Self.blockSize
        }
        heapify()
        firstRingBucket += 1
        if beyondFirstBucket < firstRingBucket + Double(Self.ringSize) { bringBeyondIntoRing() }
    }

    /// Asks the CPU for every block of a bucket, `first` and those linked after it, before any is read: the
    /// loads then overlap instead of waiting for one another.
    @inlinable
    func prefetchBlocks(from first: Int32) {
        blocks.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            blockNext.withUnsafeBufferPointer { next in
                var block = first
                while block >= 0 {
                    citysim_prefetch_range(base + Int(block) &* Self.blockSize, Self.blockSize &* MemoryLayout<Entry>.stride)
                    block = next[Int(block)]
                }
            }
        }
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
        var used = Set<Int32>()
        for slot in ring.indices {
            var block = ring[slot].block
            var fill = Int(ring[slot].fill)
            precondition(block < 0 ? fill == 0 : (1...Self.blockSize).contains(fill), "bucket head fill \(fill)")
            while block >= 0 {
                precondition(used.insert(block).inserted, "block \(block) in two places")
                for index in Int(block) * Self.blockSize ..< Int(block) * Self.blockSize + fill {
                    let bucket = Self.bucket(of: blocks[index].key.time)
                    precondition(bucket >= firstRingBucket && bucket < firstRingBucket + Double(Self.ringSize)
                                 && Int(bucket) & (Self.ringSize - 1) == slot, "event of bucket \(bucket) in slot \(slot)")
                    precondition(blocks[index].key.time >= clock, "bucketed event before now")
                }
                linked += fill
                block = blockNext[Int(block)]
                fill = Self.blockSize
            }
        }
        precondition(linked == ringCount, "ring counts \(ringCount) events, links \(linked)")
        var free = freeBlock
        while free >= 0 {
            precondition(used.insert(free).inserted, "free block \(free) also in use")
            free = blockNext[Int(free)]
        }
        precondition(used.count == blockNext.count && blocks.count == blockNext.count * Self.blockSize,
                     "\(blockNext.count) blocks, \(used.count) in buckets or free")
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

