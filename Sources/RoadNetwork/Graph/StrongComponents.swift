/// Strongly connected components of a directed graph in adjacency-array form, by Tarjan's
/// algorithm written with an explicit stack (no recursion, so a 10-million-node chain is fine).
///
/// Invariant: `component[v]` is in `0..<count`; two nodes share a component exactly when each
/// reaches the other.
struct StrongComponents {
    let component: [Int32]
    let count: Int

    /// - Parameters:
    ///   - firstOut: `n + 1` offsets into `head`; node `v`'s successors are `head[firstOut[v]..<firstOut[v+1]]`.
    /// - Complexity: O(n + m) time and memory.
    init(firstOut: [Int32], head: [Int32]) {
        let n = firstOut.count - 1
        var index = [Int32](repeating: -1, count: n)
        var low = [Int32](repeating: 0, count: n)
        var onStack = [Bool](repeating: false, count: n)
        var component = [Int32](repeating: -1, count: n)
        var stack: [Int32] = []
        var callStack: [(node: Int32, nextEdge: Int32)] = []
        var nextIndex: Int32 = 0
        var count: Int32 = 0
        for root in 0..<n where index[root] < 0 {
            callStack.append((Int32(root), firstOut[root]))
            index[root] = nextIndex; low[root] = nextIndex; nextIndex += 1
            stack.append(Int32(root)); onStack[root] = true
            while let (v, edge) = callStack.last {
                let vi = Int(v)
                if edge < firstOut[vi + 1] {
                    callStack[callStack.count - 1].nextEdge = edge + 1
                    let w = Int(head[Int(edge)])
                    if index[w] < 0 {
                        index[w] = nextIndex; low[w] = nextIndex; nextIndex += 1
                        stack.append(Int32(w)); onStack[w] = true
                        callStack.append((Int32(w), firstOut[w]))
                    } else if onStack[w] {
                        low[vi] = min(low[vi], index[w])
                    }
                    continue
                }
                callStack.removeLast()
                if let parent = callStack.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[vi]) }
                if low[vi] == index[vi] {
                    while let w = stack.popLast() {
                        onStack[Int(w)] = false
                        component[Int(w)] = count
                        if w == v { break }
                    }
                    count += 1
                }
            }
        }
        self.component = component
        self.count = Int(count)
    }

    /// The id of the component with the most nodes (the lowest id among equals), or nil for an empty graph.
    var largest: Int32? {
        guard count > 0 else { return nil }
        var sizes = [Int](repeating: 0, count: count)
        for c in component { sizes[Int(c)] += 1 }
        var best = 0
        for c in 1..<count where sizes[c] > sizes[best] { best = c }
        return Int32(best)
    }
}
