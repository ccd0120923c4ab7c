/// One direction of a contraction hierarchy in compact arrays, indexed by rank: for rank `r`,
/// the edges to higher ranks with their weight (seconds), length (metres) and, for shortcuts,
/// the middle node (rank) they bypass (-1 for a road segment).
///
/// Invariant: every `target[e]` of node `r` is a rank greater than `r`.
struct HierarchyEdges: Sendable {
    var firstOut: [Int32]
    var target: [Int32]
    var weight: [Double]
    var length: [Double]
    var middle: [Int32]

    init(nodeCount: Int, lists: [[HierarchyArc]]) {
        firstOut = [0]
        firstOut.reserveCapacity(nodeCount + 1)
        target = []; weight = []; length = []; middle = []
        for list in lists {
            for arc in list {
                target.append(arc.other); weight.append(arc.weight); length.append(arc.length); middle.append(arc.middle)
            }
            firstOut.append(Int32(target.count))
        }
    }
}

/// An edge while the hierarchy is built: the node at its other end, its cost and the node it bypasses.
struct HierarchyArc {
    var other: Int32
    var weight: Double
    var length: Double
    var middle: Int32
}
