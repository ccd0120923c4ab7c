/// The working memory of one bidirectional contraction-hierarchy query, reused across queries
/// (distances are invalidated by a stamp, not by clearing arrays).
///
/// The search is the textbook CH query with stall-on-demand: a forward upward search from the
/// sources and a backward upward search from the targets, alternating by smallest key, stopping
/// when both keys reach the best meeting cost.
///
/// Invariant: `distance(...)` returns the exact minimum over sources s, targets t of
/// `sourceOffset(s) + cost(s, t) + targetOffset(t)`, or nil when no target is reachable; after it,
/// `meeting` and the labels' parent arcs describe that cheapest path (`lastPath(in:)`).
public struct HierarchyQuery: Sendable {
    var forwardDistance: [Double]
    var backwardDistance: [Double]
    var forwardLength: [Double]
    var backwardLength: [Double]
    var forwardStamp: [UInt32]
    var backwardStamp: [UInt32]
    /// The arc (index into `up` forwards, `down` backwards) that gave each label, -1 at a seed: the path behind an answer.
    var forwardParent: [Int32]
    var backwardParent: [Int32]
    /// The rank where the best path of the last `distance` call met (-1: none found).
    var meeting: Int32 = -1
    var stamp: UInt32 = 0
    /// The stamp of the backward labels kept by `prepareTargets` (0: none kept).
    var preparedStamp: UInt32 = 0
    var preparedTargets: [(node: Int32, cost: Double, length: Double)] = []
    var forwardHeap = MinHeap()
    var backwardHeap = MinHeap()
    /// Nodes settled by the last query (both directions), for measurements.
    public private(set) var settledNodes = 0

    public init(nodeCount: Int) {
        forwardDistance = Array(repeating: 0, count: nodeCount)
        backwardDistance = forwardDistance
        forwardLength = forwardDistance
        backwardLength = forwardDistance
        forwardStamp = Array(repeating: 0, count: nodeCount)
        backwardStamp = forwardStamp
        forwardParent = Array(repeating: -1, count: nodeCount)
        backwardParent = forwardParent
    }

    /// Cost and length of the cheapest path from any source to any target.
    /// - Parameters:
    ///   - sources: (graph node, cost already spent, length already driven) to start from.
    ///   - targets: (graph node, cost still to add, length still to drive) to end at.
    public mutating func distance(in hierarchy: ContractionHierarchy,
                                  sources: [(node: Int32, cost: Double, length: Double)],
                                  targets: [(node: Int32, cost: Double, length: Double)]) -> (cost: Double, length: Double)? {
        nextStamp()
        preparedStamp = 0  // this query overwrites backward labels
        meeting = -1
        seedForward(hierarchy, sources)
        seedBackward(hierarchy, targets)
        var best = (cost: Double.infinity, length: 0.0)
        while true {
            let forwardKey = forwardHeap.minKey, backwardKey = backwardHeap.minKey
            if min(forwardKey, backwardKey) >= best.cost { break }
            if forwardKey <= backwardKey {
                settleForward(hierarchy, meetingStamp: stamp, best: &best)
            } else {
                settleBackward(hierarchy, meet: true, best: &best)
            }
        }
        return best.cost < .infinity ? best : nil
    }

    mutating func nextStamp() {
        if stamp == .max - 1 {
            for i in forwardStamp.indices { forwardStamp[i] = 0; backwardStamp[i] = 0 }
            stamp = 0
            preparedStamp = 0
        }
        stamp += 1
        settledNodes = 0
    }

    mutating func seedForward(_ hierarchy: ContractionHierarchy, _ sources: [(node: Int32, cost: Double, length: Double)]) {
        forwardHeap.removeAll()
        for s in sources {
            let r = Int(hierarchy.rank[Int(s.node)])
            if forwardStamp[r] != stamp || s.cost < forwardDistance[r] {
                forwardStamp[r] = stamp; forwardDistance[r] = s.cost; forwardLength[r] = s.length; forwardParent[r] = -1
                forwardHeap.push(s.cost, Int32(r))
            }
        }
    }

    mutating func seedBackward(_ hierarchy: ContractionHierarchy, _ targets: [(node: Int32, cost: Double, length: Double)]) {
        backwardHeap.removeAll()
        for t in targets {
            let r = Int(hierarchy.rank[Int(t.node)])
            if backwardStamp[r] != stamp || t.cost < backwardDistance[r] {
                backwardStamp[r] = stamp; backwardDistance[r] = t.cost; backwardLength[r] = t.length; backwardParent[r] = -1
                backwardHeap.push(t.cost, Int32(r))
            }
        }
    }

    /// Settles the forward search's next node, meeting backward labels stamped `meetingStamp`.
    @inline(__always)
    mutating func settleForward(_ hierarchy: ContractionHierarchy, meetingStamp: UInt32, best: inout (cost: Double, length: Double)) {
        let (d, u) = forwardHeap.pop()
        let ui = Int(u)
        if d > forwardDistance[ui] { return }
        settledNodes += 1
        if backwardStamp[ui] == meetingStamp, d + backwardDistance[ui] < best.cost {
            best = (d + backwardDistance[ui], forwardLength[ui] + backwardLength[ui])
            meeting = u
        }
        if Self.stalled(u, d, stamp: stamp, edges: hierarchy.down, stamps: forwardStamp, distances: forwardDistance) { return }
        Self.relax(u, d, stamp: stamp, edges: hierarchy.up, stamps: &forwardStamp, distances: &forwardDistance, lengths: &forwardLength,
                   parents: &forwardParent, heap: &forwardHeap)
    }

    /// Settles the backward search's next node, meeting forward labels of this query when `meet`.
    @inline(__always)
    mutating func settleBackward(_ hierarchy: ContractionHierarchy, meet: Bool, best: inout (cost: Double, length: Double)) {
        let (d, u) = backwardHeap.pop()
        let ui = Int(u)
        if d > backwardDistance[ui] { return }
        settledNodes += 1
        if meet, forwardStamp[ui] == stamp, d + forwardDistance[ui] < best.cost {
            best = (d + forwardDistance[ui], forwardLength[ui] + backwardLength[ui])
            meeting = u
        }
        if Self.stalled(u, d, stamp: stamp, edges: hierarchy.up, stamps: backwardStamp, distances: backwardDistance) { return }
        Self.relax(u, d, stamp: stamp, edges: hierarchy.down, stamps: &backwardStamp, distances: &backwardDistance, lengths: &backwardLength,
                   parents: &backwardParent, heap: &backwardHeap)
    }

    /// Runs the complete backward upward search from `targets` and keeps its labels, so that
    /// following `distanceToPrepared` calls (many sources, one destination: the closest-taxi search)
    /// only run their forward half.
    public mutating func prepareTargets(in hierarchy: ContractionHierarchy, _ targets: [(node: Int32, cost: Double, length: Double)]) {
        nextStamp()
        preparedStamp = stamp
        preparedTargets = targets
        seedBackward(hierarchy, targets)
        var unused = (cost: Double.infinity, length: 0.0)
        while !backwardHeap.isEmpty { settleBackward(hierarchy, meet: false, best: &unused) }
    }

    /// Whether `prepareTargets` labels are still valid.
    public var hasPreparedTargets: Bool { preparedStamp != 0 }

    /// Cost and length from any source to the targets given to the last `prepareTargets`.
    /// With `atMost`: exact when the cost is at most `bound`; otherwise nil or a result costing more than
    /// `bound` — the forward search stops once every label left costs more (it cannot get cheaper).
    public mutating func distanceToPrepared(in hierarchy: ContractionHierarchy,
                                            sources: [(node: Int32, cost: Double, length: Double)],
                                            atMost bound: Double = .infinity) -> (cost: Double, length: Double)? {
        precondition(preparedStamp != 0, "prepareTargets first")
        if stamp >= .max - 2 {
            // The stamps are about to wrap and be cleared: clear them now and search the targets again.
            stamp = .max - 1
            nextStamp()
            prepareTargets(in: hierarchy, preparedTargets)
        }
        let prepared = preparedStamp
        nextStamp()
        meeting = -1
        seedForward(hierarchy, sources)
        var best = (cost: Double.infinity, length: 0.0)
        while !forwardHeap.isEmpty, forwardHeap.minKey < best.cost, forwardHeap.minKey <= bound {
            settleForward(hierarchy, meetingStamp: prepared, best: &best)
        }
        return best.cost < .infinity ? best : nil
    }

    /// Stall-on-demand: `u` reached at `d` is not on a shortest path if a higher node already
    /// reaches it more cheaply through an arc of the opposite direction.
    @inline(__always)
    static func stalled(_ u: Int32, _ d: Double, stamp: UInt32, edges: HierarchyEdges, stamps: [UInt32], distances: [Double]) -> Bool {
        let ui = Int(u)
        for e in Int(edges.firstOut[ui])..<Int(edges.firstOut[ui + 1]) {
            let h = Int(edges.target[e])
            if stamps[h] == stamp, distances[h] + edges.weight[e] < d { return true }
        }
        return false
    }

    @inline(__always)
    static func relax(_ u: Int32, _ d: Double, stamp: UInt32, edges: HierarchyEdges, stamps: inout [UInt32], distances: inout [Double],
               lengths: inout [Double], parents: inout [Int32], heap: inout MinHeap) {
        let ui = Int(u)
        let base = lengths[ui]
        for e in Int(edges.firstOut[ui])..<Int(edges.firstOut[ui + 1]) {
            let h = Int(edges.target[e])
            let nd = d + edges.weight[e]
            if stamps[h] != stamp || nd < distances[h] {
                stamps[h] = stamp; distances[h] = nd; lengths[h] = base + edges.length[e]; parents[h] = Int32(e)
                heap.push(nd, Int32(h))
            }
        }
    }
}
