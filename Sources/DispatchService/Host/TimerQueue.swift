import DispatchCore

/// The service's pending `Effect.wake`s: a binary min-heap ordered by
/// (due time, insertion sequence), so simultaneous timers fire in the order asked.
///
/// Invariant: every entry precedes or ties with its children (`heap[(i - 1) / 2]` is not
/// after `heap[i]`), so `first` is the earliest; removing entries keeps the others' order.
struct TimerQueue: Equatable, Codable {
    struct Entry: Equatable, Codable {
        var due: Double
        var sequence: UInt64
        var timer: TimerID
        func precedes(_ other: Entry) -> Bool { (due, sequence) < (other.due, other.sequence) }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    var count: Int { heap.count }
    /// The earliest entry.
    var first: Entry? { heap.first }
    /// Every pending timer, in no particular order.
    var timers: [(due: Double, timer: TimerID)] { heap.map { ($0.due, $0.timer) } }

    /// - Complexity: O(log n).
    mutating func insert(_ timer: TimerID, due: Double) {
        heap.append(Entry(due: due, sequence: nextSequence, timer: timer))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry.
    /// - Complexity: O(log n).
    mutating func popFirst() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        siftDown(from: 0)
        return first
    }

    /// Removes every timer `isRemoved` picks; the others keep their order (due time, then sequence).
    /// - Complexity: O(n) — the survivors are re-heaped bottom-up.
    mutating func removeAll(where isRemoved: (TimerID) -> Bool) {
        heap.removeAll { isRemoved($0.timer) }
        for parent in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: parent) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
