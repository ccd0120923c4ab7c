/// The path behind the last `distance` answer: the hierarchy nodes the two searches met through,
/// with every shortcut unpacked into the road segments it stands for.
extension HierarchyQuery {
    /// The graph nodes of the path of the last `distance(in:sources:targets:)` call, from the source
    /// it left to the target it reached (shortcuts unpacked); empty when it found none.
    ///
    /// A shortcut u→w records the node v whose contraction added it (`HierarchyArc.middle`); its halves
    /// u→v and v→w are arcs of the hierarchy too (v ranks below both), so unpacking recurses until
    /// only road segments (middle -1) remain.
    /// - Complexity: O(segments on the path · log degree).
    public func lastPath(in hierarchy: ContractionHierarchy) -> [Int32] {
        guard meeting >= 0 else { return [] }
        var ranks: [Int32] = [meeting]
        var r = Int(meeting)
        while forwardParent[r] >= 0 {
            r = Int(hierarchy.up.owner(of: Int(forwardParent[r])))
            ranks.append(Int32(r))
        }
        ranks.reverse()
        r = Int(meeting)
        while backwardParent[r] >= 0 {
            r = Int(hierarchy.down.owner(of: Int(backwardParent[r])))
            ranks.append(Int32(r))
        }
        var path: [Int32] = [ranks[0]]
        for i in 1..<ranks.count { Self.unpack(ranks[i - 1], ranks[i], in: hierarchy, into: &path) }
        return path.map { hierarchy.node[Int($0)] }
    }

    /// Appends the ranks after `from` on the arc from → to, shortcuts unpacked.
    static func unpack(_ from: Int32, _ to: Int32, in hierarchy: ContractionHierarchy, into path: inout [Int32]) {
        // An arc to a higher rank is stored at its tail in `up`; to a lower rank, at its head in `down`.
        let middle = from < to ? hierarchy.up.middleOfArc(from: from, to: to) : hierarchy.down.middleOfArc(from: to, to: from)
        guard middle >= 0 else { path.append(to); return }
        unpack(from, middle, in: hierarchy, into: &path)
        unpack(middle, to, in: hierarchy, into: &path)
    }
}

extension HierarchyEdges {
    /// The rank whose arcs hold arc `edge`.
    func owner(of edge: Int) -> Int32 {
        var low = 0, high = firstOut.count - 1  // the last r with firstOut[r] <= edge
        while high - low > 1 {
            let mid = (low + high) / 2
            if Int(firstOut[mid]) <= edge { low = mid } else { high = mid }
        }
        return Int32(low)
    }

    /// The middle node of the arc stored at `rank` with target `other` (arcs are sorted by target).
    func middleOfArc(from rank: Int32, to other: Int32) -> Int32 {
        var low = Int(firstOut[Int(rank)]), high = Int(firstOut[Int(rank) + 1])
        while low < high {
            let mid = (low + high) / 2
            if target[mid] < other { low = mid + 1 } else { high = mid }
        }
        precondition(low < target.count && target[low] == other, "a shortcut's half is missing from the hierarchy")
        return middle[low]
    }
}
