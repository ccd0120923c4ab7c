/// The grid index of `PolygonZones`: a uniform grid of square cells over the zones' bounding rectangle.
///
/// Invariant: `zoneIndex(at:)` is the lowest-numbered zone whose polygons contain the point by the even–odd
/// rule with half-open crossings (`ZonePolygon.crossesRay`), or nil when none does — the same answer as
/// testing every zone in order, which the tests check.
///
/// How: within a cell (half-open, as `column`/`row` map points) that no edge of zone `z` touches, whether
/// `z` contains a point does not change, so it is decided once at the cell's centre. A cell keeps the zones
/// whose edges touch it, below the lowest zone that fills it; only those are tested for a point, and each
/// test counts crossings with that zone's edges in the point's grid row (a horizontal ray crosses no other
/// edge of the zone).
struct PolygonZoneIndex: Sendable {
    struct Edge: Sendable { let ax, ay, bx, by: Double }

    let minX, minY, maxX, maxY, side: Double
    let columns, rows: Int
    /// Per cell: a zone (>= 0) filling it, `-1` outside every zone, or `-2 - k` for mixed cell `k`.
    let cellState: [Int32]
    /// Mixed cell `k`'s candidates are `candidates[candidateStart[k] ..< candidateStart[k + 1]]`, by zone:
    /// `zone << 1 | 1` for the zone that fills the cell (last), `zone << 1` for a zone whose edges touch it.
    let candidateStart: [Int32]
    let candidates: [Int32]
    /// Zone `z`'s edges that reach row `r`: `bandEdges[bandStart[z * rows + r] ..< bandStart[z * rows + r + 1]]`.
    let bandStart: [Int32]
    let bandEdges: [Edge]

    init(zoneEdges: [[(a: Position, b: Position)]], bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) {
        (minX, minY, maxX, maxY) = bounds
        let width = max(bounds.maxX - bounds.minX, 1e-6), height = max(bounds.maxY - bounds.minY, 1e-6)
        // About four cells per edge, between 2^8 and 2^20 cells, at most 2^22 (zone, row) bands.
        let edgeCount = zoneEdges.reduce(0) { $0 + $1.count }
        let cells = Double(min(1 << 20, max(256, 4 * edgeCount)))
        let maxRows = Double(max(1, (1 << 22) / zoneEdges.count))
        let side = max((width * height / cells).squareRoot(), height / maxRows, max(width, height) / 4096)
        let columns = max(1, Int((width / side).rounded(.up))), rows = max(1, Int((height / side).rounded(.up)))
        let x0 = bounds.minX, y0 = bounds.minY
        (self.side, self.columns, self.rows) = (side, columns, rows)

        var bandStart: [Int32] = []
        var bandEdges: [Edge] = []
        var touches: [UInt64] = []
        Self.collect(zoneEdges, rows: rows, row: { Self.slot($0, y0, side, rows) }, column: { Self.slot($0, x0, side, columns) },
                     columns: columns, bandStart: &bandStart, bandEdges: &bandEdges, touches: &touches)
        let starts = bandStart, edges = bandEdges
        self.bandStart = starts
        self.bandEdges = edges
        (cellState, candidateStart, candidates) = Self.classify(
            zoneCount: zoneEdges.count, columns: columns, rows: rows, touches: touches,
            filling: { z, r in
                Self.insideRuns(edges[Int(starts[z * rows + r])..<Int(starts[z * rows + r + 1])], y: y0 + (Double(r) + 0.5) * side)
                    .flatMap { run in Self.centredColumns(run, x0, side, columns) }
            })
    }

    func column(_ x: Double) -> Int { Self.slot(x, minX, side, columns) }
    func row(_ y: Double) -> Int { Self.slot(y, minY, side, rows) }

    /// The lowest-numbered zone containing `p`, or nil.
    func zoneIndex(at p: Position) -> Int? {
        guard p.x >= minX, p.x <= maxX, p.y >= minY, p.y <= maxY else { return nil }
        let r = row(p.y)
        let state = cellState[r * columns + column(p.x)]
        if state >= 0 { return Int(state) }
        if state == -1 { return nil }
        let k = Int(-2 - state)
        for i in Int(candidateStart[k])..<Int(candidateStart[k + 1]) {
            let candidate = Int(candidates[i]), zone = candidate >> 1
            if candidate & 1 == 1 || bandContains(zone: zone, row: r, p) { return zone }
        }
        return nil
    }

    /// Even–odd test of `p` against zone `zone`'s edges in row `r`.
    private func bandContains(zone: Int, row r: Int, _ p: Position) -> Bool {
        let band = zone * rows + r
        var inside = false
        for i in Int(bandStart[band])..<Int(bandStart[band + 1]) {
            let e = bandEdges[i]
            if ZonePolygon.crossesRay(from: p, Position(x: e.ax, y: e.ay), Position(x: e.bx, y: e.by)) { inside.toggle() }
        }
        return inside
    }

    // MARK: - Building

    static func slot(_ v: Double, _ origin: Double, _ side: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int((v - origin) / side)))
    }

    /// Each zone's edges by row band, and the sorted, distinct `cell << 32 | zone` pairs of cells that an
    /// edge's bounding box covers (a superset of the cells the edge passes through).
    private static func collect(_ zoneEdges: [[(a: Position, b: Position)]], rows: Int, row: (Double) -> Int,
                                column: (Double) -> Int, columns: Int,
                                bandStart: inout [Int32], bandEdges: inout [Edge], touches: inout [UInt64]) {
        var counts = [Int32](repeating: 0, count: zoneEdges.count * rows + 1)
        for (z, edges) in zoneEdges.enumerated() {
            for e in edges {
                for r in row(min(e.a.y, e.b.y))...row(max(e.a.y, e.b.y)) { counts[z * rows + r + 1] += 1 }
            }
        }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        bandStart = counts
        var fill = Array(counts.dropLast())
        bandEdges = Array(repeating: Edge(ax: 0, ay: 0, bx: 0, by: 0), count: Int(counts.last!))
        for (z, edges) in zoneEdges.enumerated() {
            for e in edges {
                let rowRange = row(min(e.a.y, e.b.y))...row(max(e.a.y, e.b.y))
                for r in rowRange {
                    bandEdges[Int(fill[z * rows + r])] = Edge(ax: e.a.x, ay: e.a.y, bx: e.b.x, by: e.b.y)
                    fill[z * rows + r] += 1
                    for c in column(min(e.a.x, e.b.x))...column(max(e.a.x, e.b.x)) {
                        touches.append(UInt64(r * columns + c) << 32 | UInt64(z))
                    }
                }
            }
        }
        touches.sort()
        var distinct: [UInt64] = []
        distinct.reserveCapacity(touches.count)
        for t in touches where distinct.last != t { distinct.append(t) }
        touches = distinct
    }

    /// The x-runs `[x0, x1)` of a horizontal line at `y` inside the region bounded by `edges` (even–odd).
    static func insideRuns(_ edges: ArraySlice<Edge>, y: Double) -> [(Double, Double)] {
        var xs: [Double] = []
        for e in edges where (e.ay > y) != (e.by > y) { xs.append(e.ax + (y - e.ay) * (e.bx - e.ax) / (e.by - e.ay)) }
        xs.sort()
        return stride(from: 0, to: xs.count - 1, by: 2).map { (xs[$0], xs[$0 + 1]) }
    }

    /// Columns whose centre x lies in the run `[x0, x1)`.
    private static func centredColumns(_ run: (Double, Double), _ minX: Double, _ side: Double, _ columns: Int) -> Range<Int> {
        let first = max(0, Int(((run.0 - minX) / side - 0.5).rounded(.up)))
        var last = min(columns - 1, Int(((run.1 - minX) / side - 0.5).rounded(.down)))
        if last >= first, minX + (Double(last) + 0.5) * side >= run.1 { last -= 1 }
        return first..<max(first, last + 1)
    }

    /// Cell states and candidate lists from the touching pairs and, per zone and row, the columns whose
    /// centre the zone contains.
    private static func classify(zoneCount: Int, columns: Int, rows: Int, touches: [UInt64],
                                 filling: (Int, Int) -> [Int]) -> ([Int32], [Int32], [Int32]) {
        func touching(_ cell: Int, _ zone: Int) -> Bool {
            let key = UInt64(cell) << 32 | UInt64(zone)
            var low = 0, high = touches.count
            while low < high {
                let mid = (low + high) / 2
                if touches[mid] < key { low = mid + 1 } else { high = mid }
            }
            return low < touches.count && touches[low] == key
        }
        // The lowest zone that contains a cell's centre and whose edges do not touch the cell fills it.
        var fills = [Int32](repeating: -1, count: columns * rows)
        for r in 0..<rows {
            for z in 0..<zoneCount {
                for c in filling(z, r) where fills[r * columns + c] == -1 && !touching(r * columns + c, z) {
                    fills[r * columns + c] = Int32(z)
                }
            }
        }
        var state = fills, starts: [Int32] = [0], candidates: [Int32] = []
        var i = 0
        for cell in 0..<columns * rows {
            let fill = fills[cell]
            let before = candidates.count
            while i < touches.count, Int(touches[i] >> 32) == cell {
                let zone = Int32(touches[i] & 0xffff_ffff)
                if fill < 0 || zone < fill { candidates.append(zone << 1) }
                i += 1
            }
            guard candidates.count > before else { continue }
            if fill >= 0 { candidates.append(fill << 1 | 1) }
            state[cell] = -2 - Int32(starts.count - 1)
            starts.append(Int32(candidates.count))
        }
        return (state, starts, candidates)
    }
}
