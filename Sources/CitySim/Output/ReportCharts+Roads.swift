import DispatchCore
import RoadNetwork

extension ReportCharts {
    /// The road network's segments to draw, each street once: a two-way street is two directed edges
    /// between the same nodes and is drawn once; a one-way street once.
    ///
    /// - Complexity: O(edges).
    static func roadSegments(_ graph: RoadGraph) -> [(from: Position, to: Position)] {
        var seen = Set<Int64>()
        var lines: [(from: Position, to: Position)] = []
        lines.reserveCapacity(graph.edgeCount / 2 + 1)
        for tail in 0..<graph.nodeCount {
            for edge in graph.edges(from: tail) {
                let head = Int(graph.head[edge])
                let key = Int64(min(tail, head)) << 32 | Int64(max(tail, head))
                guard seen.insert(key).inserted else { continue }
                lines.append((graph.positions[tail], graph.positions[head]))
            }
        }
        return lines
    }
}
