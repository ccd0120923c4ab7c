/// A contraction hierarchy over a weighted directed graph: the node order (ranks) and the upward
/// and downward arcs, original and shortcuts, that answer exact shortest-path queries with two
/// small upward Dijkstra searches.
///
/// Invariant: for every pair (s, t), the cheapest up-then-down path in the hierarchy costs exactly
/// the shortest-path cost in the input graph (the witness searches only ever add shortcuts).
public struct ContractionHierarchy: Sendable {
    /// `rank[node]`: the position of the node in the contraction order.
    let rank: [Int32]
    /// `node[rank]`: the inverse of `rank`.
    let node: [Int32]
    /// Indexed by rank: arcs r→h to higher ranks, in the input's direction.
    let up: HierarchyEdges
    /// Indexed by rank: arcs h→r from higher ranks, stored at r with `target = h`.
    let down: HierarchyEdges

    public var nodeCount: Int { rank.count }
    /// Arcs in both directions, shortcuts included.
    public var arcCount: Int { up.target.count + down.target.count }

    /// Contracts a graph given as parallel arc arrays.
    /// - Parameters:
    ///   - weights: the cost minimised (seconds); `lengths` (metres) are summed along the chosen paths.
    /// - Complexity: roughly O(n log n) on road networks; each witness search is bounded.
    public init(nodeCount: Int, tails: [Int32], heads: [Int32], weights: [Double], lengths: [Double]) {
        var builder = HierarchyBuilder(nodeCount: nodeCount, tails: tails, heads: heads, weights: weights, lengths: lengths)
        let (order, upLists, downLists) = builder.run()
        var rank = [Int32](repeating: 0, count: nodeCount)
        for (r, v) in order.enumerated() { rank[Int(v)] = Int32(r) }
        func ranked(_ lists: [[HierarchyArc]]) -> [[HierarchyArc]] {
            order.map { v in
                lists[Int(v)].map { HierarchyArc(other: rank[Int($0.other)], weight: $0.weight, length: $0.length,
                                                 middle: $0.middle < 0 ? -1 : rank[Int($0.middle)]) }
                    .sorted { $0.other < $1.other }
            }
        }
        self.rank = rank
        self.node = order
        self.up = HierarchyEdges(nodeCount: nodeCount, lists: ranked(upLists))
        self.down = HierarchyEdges(nodeCount: nodeCount, lists: ranked(downLists))
    }
}
