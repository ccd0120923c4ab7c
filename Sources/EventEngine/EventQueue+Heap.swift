// MARK: - 4-ary heap maintenance
//
// Both sifts move a "hole" instead of swapping: the moving entry is taken out
// once, parents or children slide into the hole, and the entry is written
// back once at its final place.

extension EventQueue {
    /// Restores the heap after an append by moving the last entry up.
    ///
    /// - Complexity: O(log₄ n)
    @inlinable
    mutating func siftUpLast() {
        entries.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            var hole = buffer.count &- 1
            let moving = (base + hole).move()
            while hole > 0 {
                let parent = (hole &- 1) >> 2
                guard moving.key.runsBefore(base[parent].key) else { break }
                (base + hole).moveInitialize(from: base + parent, count: 1)
                hole = parent
            }
            (base + hole).initialize(to: moving)
        }
    }

    /// Puts the whole heap in heap order (Floyd's bottom-up build): each parent, from the last one up to the
    /// root, sinks below its smaller children. Any order of entries in; the heap's invariant out.
    ///
    /// - Complexity: O(n)
    @inlinable
    mutating func heapify() {
        entries.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            let count = buffer.count
            guard count > 1 else { return }
            var parent = (count &- 2) >> 2
            while true {
                Self.sink((base + parent).move(), into: parent, base, count: count)
                if parent == 0 { break }
                parent &-= 1
            }
        }
    }

    /// Removes and returns the root, or `nil` when the heap is empty.
    ///
    /// The last entry fills the root's place and sinks to where it belongs.
    ///
    /// - Complexity: O(log₄ n)
    @inlinable
    mutating func removeFirst() -> Entry? {
        // Not `popLast()`: the standard library's generic one stays an out-of-line call (~37 instructions a pop,
        // 0.5 % of the grid city's loop); ContiguousArray's own `removeLast()` is inlined.
        guard !entries.isEmpty else { return nil }
        let last = entries.removeLast()
        if entries.isEmpty { return last }
        return entries.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress.unsafelyUnwrapped
            let count = buffer.count
            let root = base.move()
            Self.sink(last, into: 0, base, count: count)
            return root
        }
    }

    /// Puts `moving` in the hole at `start` (an uninitialised place of `base[0 ..< count]`) or below it: children
    /// that run before it rise into the hole until none does.
    @inlinable @inline(__always)
    static func sink(_ moving: consuming Entry, into start: Int, _ base: UnsafeMutablePointer<Entry>, count: Int) {
        var hole = start
        while true {
            let first = (hole << 2) &+ 1
            if first >= count { break }
            let best = bestChild(base, first: first, count: count)
            guard base[best].key.runsBefore(moving.key) else { break }
            (base + hole).moveInitialize(from: base + best, count: 1)
            hole = best
        }
        (base + hole).initialize(to: moving)
    }

    /// The index of the child that runs first among `first ..< min(first + 4, count)`.
    @inlinable @inline(__always)
    static func bestChild(_ base: UnsafeMutablePointer<Entry>, first: Int, count: Int) -> Int {
        if first &+ 3 < count {
            // All four children exist: a two-round tournament.
            let left = base[first &+ 1].key.runsBefore(base[first].key) ? first &+ 1 : first
            let right = base[first &+ 3].key.runsBefore(base[first &+ 2].key) ? first &+ 3 : first &+ 2
            return base[right].key.runsBefore(base[left].key) ? right : left
        }
        var best = first
        var child = first &+ 1
        while child < count {
            if base[child].key.runsBefore(base[best].key) { best = child }
            child &+= 1
        }
        return best
    }

    // MARK: - Invariant checks

    /// Traps unless every entry runs after its parent, times are finite and
    /// not before ``now``, and sequence numbers are below `nextSequence`.
    ///
    /// - Complexity: O(n)
    func _checkInvariants() {
        for index in entries.indices {
            let key = entries[index].key
            precondition(key.time.isFinite && key.time >= clock, "pending event at \(key.time) before now \(clock)")
            precondition(key.sequence < nextSequence, "sequence number \(key.sequence) not yet issued")
            if index > 0 {
                let parent = (index - 1) / 4
                precondition(entries[parent].key.runsBefore(key), "heap order broken at index \(index)")
            }
        }
        for index in timeline.indices.dropFirst(timelineHead) {
            let key = timeline[index].key
            precondition(key.time.isFinite && key.time >= clock, "pending timeline event at \(key.time) before now \(clock)")
            precondition(key.sequence < nextSequence, "sequence number \(key.sequence) not yet issued")
            if index > timelineHead { precondition(timeline[index - 1].key.runsBefore(key), "timeline order broken at \(index)") }
        }
        if let key = streamNext?.key {
            precondition(key.time.isFinite && key.time >= clock, "pending stream event at \(key.time) before now \(clock)")
            precondition(key.sequence < nextSequence, "sequence number \(key.sequence) not yet issued")
        }
        _checkBucketInvariants()
    }
}
