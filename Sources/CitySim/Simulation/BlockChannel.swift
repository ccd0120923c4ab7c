import Foundation

/// Blocks of values passed from one thread to one other, in order, a bounded number in flight; the
/// receiver's emptied blocks go back to the sender to be filled again. Every block the two can hold at
/// once (`capacity` sent, one being filled, one being read) is allocated up front, so the blocks allocate
/// nothing once the run goes, however the two threads happen to interleave.
/// The simulator's helper threads use it: `CustomerFeed` (customers drawn ahead) and `QueueRecordsAside` (the
/// zone queues' records kept beside the loop).
///
/// Invariant: the receiver gets every block sent before `finish()`, in order, each once, then nil. After
/// `close()` (either side gone) nothing waits: `send` returns false, and `receive` returns what is left, then nil.
final class BlockChannel<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    // Guarded by `condition`:
    private var ready: [[Element]] = []
    private var spare: [[Element]] = []
    private var finished = false
    private var closed = false

    /// - Parameters:
    ///   - capacity: blocks sent and not yet received, at most (the sender waits beyond it).
    ///   - blockSize: the values a block is reserved for.
    init(capacity: Int, blockSize: Int) {
        self.capacity = capacity
        ready.reserveCapacity(capacity)
        spare = (0..<(capacity + 2)).map { _ in
            var block: [Element] = []
            block.reserveCapacity(blockSize)
            return block
        }
    }

    /// An empty block for the sender to fill first.
    func emptyBlock() -> [Element] {
        condition.lock()
        defer { condition.unlock() }
        return spare.popLast() ?? []
    }

    /// Sends `block` (when not empty) and hands back an empty one to fill, waiting while the channel is full.
    /// False, sending nothing, once the receiver has closed the channel.
    @discardableResult
    func send(_ block: inout [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        guard !block.isEmpty else { return true }
        ready.append(block)
        block = spare.popLast() ?? []
        condition.broadcast()
        return true
    }

    /// The sender has sent its last block.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next block, waiting for one; nil once the sender finished and every block was received. `used`,
    /// the block received before, goes back to the sender emptied.
    func receive(returning used: inout [Element]) -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        if used.capacity > 0 {
            used.removeAll(keepingCapacity: true)
            spare.append(used)
            used = []
        }
        while ready.isEmpty && !finished && !closed { condition.wait() }
        guard !ready.isEmpty else { return nil }
        condition.broadcast()
        return ready.removeFirst()
    }

    /// One side is gone (the run ended or was dropped): a waiting sender gives up and every later `send`
    /// returns false; a waiting receiver gets what is left, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
