// MARK: - 4-ary heap maintenance
//
// Both sifts move a "hole" instead of swapping: the moving key and payload are
// taken out once, parents or children slide into the hole, and they are
// written back once at their final place. Only keys are compared.

extension EventQueue {
    /// Restores the heap after an append by moving the last entry up.
    ///
    /// - Complexity: O(log₄ n)
    @inlinable
    mutating func siftUpLast() {
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            payloads.withUnsafeMutableBufferPointer { payloadBuffer in
                let key = keyBuffer.baseAddress.unsafelyUnwrapped
                let payload = payloadBuffer.baseAddress.unsafelyUnwrapped
                var hole = keyBuffer.count &- 1
                let movingKey = key[hole]
                let movingPayload = (payload + hole).move()
                while hole > 0 {
                    let parent = (hole &- 1) >> 2
                    guard movingKey.runsBefore(key[parent]) else { break }
                    key[hole] = key[parent]
                    (payload + hole).moveInitialize(from: payload + parent, count: 1)
                    hole = parent
                }
                key[hole] = movingKey
                (payload + hole).initialize(to: movingPayload)
            }
        }
    }

    /// Removes and returns the root, or `nil` when the heap is empty.
    ///
    /// The last entry fills the root's place and sinks to where it belongs.
    ///
    /// - Complexity: O(log₄ n)
    @inlinable
    mutating func removeFirst() -> (EventKey, Payload)? {
        guard let lastKey = keys.popLast() else { return nil }
        let lastPayload = payloads.removeLast()
        if keys.isEmpty { return (lastKey, lastPayload) }
        return keys.withUnsafeMutableBufferPointer { keyBuffer in
            payloads.withUnsafeMutableBufferPointer { payloadBuffer in
                let key = keyBuffer.baseAddress.unsafelyUnwrapped
                let payload = payloadBuffer.baseAddress.unsafelyUnwrapped
                let count = keyBuffer.count
                let root = (key[0], payload.move())
                var hole = 0
                while true {
                    let first = (hole << 2) &+ 1
                    if first >= count { break }
                    let best = Self.bestChild(key, first: first, count: count)
                    guard key[best].runsBefore(lastKey) else { break }
                    key[hole] = key[best]
                    (payload + hole).moveInitialize(from: payload + best, count: 1)
                    hole = best
                }
                key[hole] = lastKey
                (payload + hole).initialize(to: lastPayload)
                return root
            }
        }
    }

    /// The index of the child that runs first among `first ..< min(first + 4, count)`.
    @inlinable @inline(__always)
    static func bestChild(_ key: UnsafeMutablePointer<EventKey>, first: Int, count: Int) -> Int {
        if first &+ 3 < count {
            // All four children exist: a two-round tournament.
            let left = key[first &+ 1].runsBefore(key[first]) ? first &+ 1 : first
            let right = key[first &+ 3].runsBefore(key[first &+ 2]) ? first &+ 3 : first &+ 2
            return key[right].runsBefore(key[left]) ? right : left
        }
        var best = first
        var child = first &+ 1
        while child < count {
            if key[child].runsBefore(key[best]) { best = child }
            child &+= 1
        }
        return best
    }

    // MARK: - Invariant checks

    /// Traps unless every entry runs after its parent, times are finite and
    /// not before ``now``, sequence numbers are below `nextSequence`, and the
    /// timeline is sorted.
    ///
    /// - Complexity: O(n)
    func _checkInvariants() {
        precondition(keys.count == payloads.count, "\(keys.count) keys but \(payloads.count) payloads")
        for index in keys.indices {
            let key = keys[index]
            precondition(key.time.isFinite && key.time >= clock, "pending event at \(key.time) before now \(clock)")
            precondition(key.sequence < nextSequence, "sequence number \(key.sequence) not yet issued")
            if index > 0 {
                let parent = (index - 1) / 4
                precondition(keys[parent].runsBefore(key), "heap order broken at index \(index)")
            }
        }
        for index in timeline.indices.dropFirst(timelineHead) {
            let key = timeline[index].key
            precondition(key.time.isFinite && key.time >= clock, "pending timeline event at \(key.time) before now \(clock)")
            precondition(key.sequence < nextSequence, "sequence number \(key.sequence) not yet issued")
            if index > timelineHead { precondition(timeline[index - 1].key.runsBefore(key), "timeline order broken at \(index)") }
        }
    }
}
