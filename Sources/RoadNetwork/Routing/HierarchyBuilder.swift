/// Builds a contraction hierarchy (Geisberger, Sanders, Schultes & Delling, "Contraction
/// Hierarchies: Faster and Simpler Hierarchical Routing in Road Networks", WEA 2008): nodes are
/// contracted one by one in the order of a lazily updated priority (edge difference + contracted
/// neighbours + level); a shortcut u→w is added when the path u→v→w may be the only shortest
/// path, i.e. when a bounded witness search from u that avoids v does not find w at most as cheaply.
///
/// Invariant: deterministic for a given input (ties broken by node index, no hashing); the
/// witness search may give up early, which only adds shortcuts, never loses a shortest path.
struct HierarchyBuilder {
    var out: [[HierarchyArc]]
    var incoming: [[HierarchyArc]]
    var contracted: [Bool]
    var deletedNeighbours: [Int32]
    var level: [Int32]
    var priority: [Double]
    // Witness search scratch.
    var witnessDistance: [Double]
    var touched: [Int32] = []
    var heap = MinHeap()
    /// Nodes a witness search may settle before giving up.
    let settleLimit: Int

    init(nodeCount: Int, tails: [Int32], heads: [Int32], weights: [Double], lengths: [Double], settleLimit: Int = 400) {
        out = Array(repeating: [], count: nodeCount)
        incoming = Array(repeating: [], count: nodeCount)
        contracted = Array(repeating: false, count: nodeCount)
        deletedNeighbours = Array(repeating: 0, count: nodeCount)
        level = Array(repeating: 0, count: nodeCount)
        priority = Array(repeating: 0, count: nodeCount)
        witnessDistance = Array(repeating: .infinity, count: nodeCount)
        self.settleLimit = settleLimit
        for e in tails.indices where tails[e] != heads[e] {
            addOrImprove(from: tails[e], to: heads[e], weight: weights[e], length: lengths[e], middle: -1)
        }
    }

    /// Adds the arc u→w, or lowers an existing one's weight; parallel arcs are merged (cheapest kept).
    mutating func addOrImprove(from u: Int32, to w: Int32, weight: Double, length: Double, middle: Int32) {
        if let i = out[Int(u)].firstIndex(where: { $0.other == w }) {
            guard weight < out[Int(u)][i].weight else { return }
            out[Int(u)][i] = HierarchyArc(other: w, weight: weight, length: length, middle: middle)
            let j = incoming[Int(w)].firstIndex(where: { $0.other == u })!
            incoming[Int(w)][j] = HierarchyArc(other: u, weight: weight, length: length, middle: middle)
        } else {
            out[Int(u)].append(HierarchyArc(other: w, weight: weight, length: length, middle: middle))
            incoming[Int(w)].append(HierarchyArc(other: u, weight: weight, length: length, middle: middle))
        }
    }

    /// Distances from `source` in the remaining graph without `avoid`, up to `limit`; read them in
    /// `witnessDistance`, then call `clearWitness()`.
    mutating func witnessSearch(from source: Int32, avoiding avoid: Int32, limit: Double) {
        heap.removeAll()
        witnessDistance[Int(source)] = 0
        touched.append(source)
        heap.push(0, source)
        var settled = 0
        while !heap.isEmpty {
            let (d, u) = heap.pop()
            if d > witnessDistance[Int(u)] { continue }
            if d > limit { break }
            settled += 1
            if settled > settleLimit { break }
            for arc in out[Int(u)] where !contracted[Int(arc.other)] && arc.other != avoid {
                let nd = d + arc.weight
                if nd < witnessDistance[Int(arc.other)] {
                    if witnessDistance[Int(arc.other)] == .infinity { touched.append(arc.other) }
                    witnessDistance[Int(arc.other)] = nd
                    heap.push(nd, arc.other)
                }
            }
        }
    }

    mutating func clearWitness() {
        for v in touched { witnessDistance[Int(v)] = .infinity }
        touched.removeAll(keepingCapacity: true)
    }

    /// The shortcuts contracting `v` needs; added to the graph when `apply`.
    mutating func contract(_ v: Int32, apply: Bool) -> (shortcuts: Int, removed: Int) {
        let ins = incoming[Int(v)].filter { !contracted[Int($0.other)] }
        let outs = out[Int(v)].filter { !contracted[Int($0.other)] }
        var shortcuts = 0
        for a in ins {
            var limit = -Double.infinity
            for b in outs where b.other != a.other { limit = max(limit, a.weight + b.weight) }
            guard limit > -Double.infinity else { continue }
            witnessSearch(from: a.other, avoiding: v, limit: limit)
            for b in outs where b.other != a.other {
                let via = a.weight + b.weight
                if witnessDistance[Int(b.other)] > via {
                    shortcuts += 1
                    if apply { addOrImprove(from: a.other, to: b.other, weight: via, length: a.length + b.length, middle: v) }
                }
            }
            clearWitness()
        }
        return (shortcuts, ins.count + outs.count)
    }

    mutating func computePriority(_ v: Int32) -> Double {
        let (shortcuts, removed) = contract(v, apply: false)
        return Double(2 * (shortcuts - removed)) + Double(deletedNeighbours[Int(v)]) + Double(level[Int(v)])
    }

    /// Contracts every node; returns the node order (first contracted first) and, per node, its
    /// arcs to nodes contracted later (up: v→h, down: h→v stored with `other = h`).
    mutating func run() -> (order: [Int32], up: [[HierarchyArc]], down: [[HierarchyArc]]) {
        let n = out.count
        var queue = MinHeap()
        for v in 0..<n {
            priority[v] = computePriority(Int32(v))
            queue.push(priority[v], Int32(v))
        }
        var order: [Int32] = []
        order.reserveCapacity(n)
        var up = Array(repeating: [HierarchyArc](), count: n)
        var down = Array(repeating: [HierarchyArc](), count: n)
        while !queue.isEmpty {
            let (p, v) = queue.pop()
            if contracted[Int(v)] || p != priority[Int(v)] { continue }
            let fresh = computePriority(v)
            if fresh > queue.minKey {
                priority[Int(v)] = fresh
                queue.push(fresh, v)
                continue
            }
            _ = contract(v, apply: true)
            up[Int(v)] = out[Int(v)].filter { !contracted[Int($0.other)] }
            down[Int(v)] = incoming[Int(v)].filter { !contracted[Int($0.other)] }
            contracted[Int(v)] = true
            order.append(v)
            var neighbours = Set<Int32>()
            for arc in up[Int(v)] { neighbours.insert(arc.other) }
            for arc in down[Int(v)] { neighbours.insert(arc.other) }
            for u in neighbours.sorted() {
                deletedNeighbours[Int(u)] += 1
                level[Int(u)] = max(level[Int(u)], level[Int(v)] + 1)
                priority[Int(u)] = computePriority(u)
                queue.push(priority[Int(u)], u)
            }
            for arc in up[Int(v)] { incoming[Int(arc.other)].removeAll { $0.other == v } }
            for arc in down[Int(v)] { out[Int(arc.other)].removeAll { $0.other == v } }
            out[Int(v)] = []
            incoming[Int(v)] = []
        }
        return (order, up, down)
    }
}
