/// A binary min-heap of (key, node) pairs for Dijkstra searches; stale entries are skipped by
/// the caller (no decrease-key).
///
/// Invariant: `keys[i] >= keys[(i - 1) / 2]` for every `i > 0`; ties pop in an order fixed by the
/// push sequence, so searches are deterministic.
struct MinHeap {
    private(set) var keys: [Double] = []
    private(set) var nodes: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }
    var minKey: Double { keys.first ?? .infinity }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    mutating func push(_ key: Double, _ node: Int32) {
        keys.append(key); nodes.append(node)
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            guard key < keys[parent] else { break }
            keys[i] = keys[parent]; nodes[i] = nodes[parent]
            i = parent
        }
        keys[i] = key; nodes[i] = node
    }

    mutating func pop() -> (key: Double, node: Int32) {
        let top = (keys[0], nodes[0])
        let lastKey = keys.removeLast(), lastNode = nodes.removeLast()
        let n = keys.count
        if n > 0 {
            var i = 0
            while true {
                var child = 2 * i + 1
                if child >= n { break }
                if child + 1 < n, keys[child + 1] < keys[child] { child += 1 }
                guard keys[child] < lastKey else { break }
                keys[i] = keys[child]; nodes[i] = nodes[child]
                i = child
            }
            keys[i] = lastKey; nodes[i] = lastNode
        }
        return top
    }
}
