import DispatchCore

/// Where a point meets the road network: the nearest point on a road segment.
///
/// Invariant: `fraction` in [0, 1] along `edge` from its tail; `distance` ≥ 0 is the straight
/// line from the query point to `point`.
public struct RoadSnap: Sendable, Equatable {
    public let edge: Int
    public let fraction: Double
    public let point: Position
    public let distance: Double
}

/// A uniform grid over the network's segments for nearest-segment queries ("snap to the
/// nearest road"): each cell lists the edges whose bounding box touches it; a query scans rings
/// of cells outwards until no closer segment can exist.
///
/// Invariant: `nearest(to:)` returns a segment at minimum distance (ties: the lowest edge index).
struct SnapIndex: Sendable {
    let cellSize: Double
    let columns: Int
    let rows: Int
    let cellStart: [Int32]
    let cellEdges: [Int32]
    let tails: [Int32]

    init(graph: RoadGraph, cellSize: Double = 150) {
        var maxX = 0.0, maxY = 0.0
        for p in graph.positions { maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        self.cellSize = cellSize
        columns = Int(maxX / cellSize) + 1
        rows = Int(maxY / cellSize) + 1
        var tails = [Int32](repeating: 0, count: graph.edgeCount)
        for v in 0..<graph.nodeCount { for e in graph.edges(from: v) { tails[e] = Int32(v) } }
        self.tails = tails
        var buckets = Array(repeating: [Int32](), count: columns * rows)
        for e in 0..<graph.edgeCount {
            let a = graph.positions[Int(tails[e])], b = graph.positions[Int(graph.head[e])]
            let (c0, r0) = Self.cell(min(a.x, b.x), min(a.y, b.y), cellSize, columns, rows)
            let (c1, r1) = Self.cell(max(a.x, b.x), max(a.y, b.y), cellSize, columns, rows)
            for r in r0...r1 { for c in c0...c1 { buckets[r * columns + c].append(Int32(e)) } }
        }
        var start: [Int32] = [0]
        var edges: [Int32] = []
        for b in buckets { edges.append(contentsOf: b); start.append(Int32(edges.count)) }
        cellStart = start
        cellEdges = edges
    }

    static func cell(_ x: Double, _ y: Double, _ size: Double, _ columns: Int, _ rows: Int) -> (Int, Int) {
        (min(max(Int(x / size), 0), columns - 1), min(max(Int(y / size), 0), rows - 1))
    }

    /// The nearest point on any segment to `p`.
    /// - Complexity: O(segments in the cells within the answer's distance).
    func nearest(to p: Position, in graph: RoadGraph) -> RoadSnap {
        let (cx, cy) = Self.cell(p.x, p.y, cellSize, columns, rows)
        // The best so far by squared distance (no square root per candidate).
        var bestEdge = -1, bestSquared = Double.infinity
        var ring = 0
        while true {
            for r in (cy - ring)...(cy + ring) where r >= 0 && r < rows {
                for c in (cx - ring)...(cx + ring) where c >= 0 && c < columns {
                    guard ring == 0 || r == cy - ring || r == cy + ring || c == cx - ring || c == cx + ring else { continue }
                    let cell = r * columns + c
                    for i in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let e = Int(cellEdges[i])
                        let squared = squaredDistance(p, to: e, graph: graph)
                        if squared > bestSquared || (squared == bestSquared && e >= bestEdge) { continue }
                        bestEdge = e
                        bestSquared = squared
                    }
                }
            }
            // Segments not yet scanned lie outside the scanned square (or outside the grid, where
            // there are none), so one found no farther than the square's nearest inner side is final.
            if bestEdge >= 0 {
                let reach = clearance(p, cx, cy, ring)
                if bestSquared <= reach * reach || ring > columns + rows { return project(p, onto: bestEdge, graph: graph) }
            }
            ring += 1
        }
    }

    /// The point of segment `edge` nearest `p`, and its fraction along the segment from its tail.
    @inline(__always)
    func closest(_ p: Position, on edge: Int, graph: RoadGraph) -> (fraction: Double, point: Position) {
        let a = graph.positions[Int(tails[edge])], b = graph.positions[Int(graph.head[edge])]
        let dx = b.x - a.x, dy = b.y - a.y
        let squared = dx * dx + dy * dy
        var t = squared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / squared : 0
        t = min(max(t, 0), 1)
        return (t, Position(x: a.x + t * dx, y: a.y + t * dy))
    }

    /// Squared distance from `p` to segment `edge` (no square root per candidate).
    @inline(__always)
    func squaredDistance(_ p: Position, to edge: Int, graph: RoadGraph) -> Double {
        let point = closest(p, on: edge, graph: graph).point
        let ex = point.x - p.x, ey = point.y - p.y
        return ex * ex + ey * ey
    }

    /// Distance from `p` to the nearest side of the square of cells scanned so far that has grid beyond it.
    func clearance(_ p: Position, _ cx: Int, _ cy: Int, _ ring: Int) -> Double {
        var reach = Double.infinity
        if cx - ring > 0 { reach = min(reach, p.x - Double(cx - ring) * cellSize) }
        if cx + ring < columns - 1 { reach = min(reach, Double(cx + ring + 1) * cellSize - p.x) }
        if cy - ring > 0 { reach = min(reach, p.y - Double(cy - ring) * cellSize) }
        if cy + ring < rows - 1 { reach = min(reach, Double(cy + ring + 1) * cellSize - p.y) }
        return reach
    }

    func project(_ p: Position, onto edge: Int, graph: RoadGraph) -> RoadSnap {
        let (t, point) = closest(p, on: edge, graph: graph)
        return RoadSnap(edge: edge, fraction: t, point: point, distance: point.euclideanDistance(to: p))
    }
}
