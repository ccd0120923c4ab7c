/// A uniform grid over the city holding every available taxi, so the closest
/// available taxi (D6) is found by searching rings of cells outward from the
/// pickup instead of scanning the fleet.
///
/// Invariant: each indexed slot is in exactly one cell, the one containing
/// its stored position; `cellOfSlot[s] == -1` exactly when `s` is not indexed.
struct AvailableTaxiIndex {
    struct Member { var slot: Int32; var position: Position }

    let cellSide: Double
    let columns: Int
    let rows: Int
    private var cells: [[Member]]
    private var cellOfSlot: [Int32] = []
    private var indexInCell: [Int32] = []
    private(set) var count = 0

    init(width: Double, height: Double, cellSide: Double) {
        self.cellSide = cellSide
        columns = max(1, Int((width / cellSide).rounded(.up)))
        rows = max(1, Int((height / cellSide).rounded(.up)))
        cells = Array(repeating: [], count: columns * rows)
    }

    mutating func addSlot() {
        cellOfSlot.append(-1)
        indexInCell.append(-1)
    }

    @inline(__always) private func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(x / cellSide))) }
    @inline(__always) private func row(_ y: Double) -> Int { min(rows - 1, max(0, Int(y / cellSide))) }

    func contains(_ slot: Int32) -> Bool { cellOfSlot[Int(slot)] >= 0 }

    /// - Complexity: O(1) amortized.
    mutating func insert(_ slot: Int32, at position: Position) {
        precondition(cellOfSlot[Int(slot)] < 0, "slot already indexed")
        let cell = row(position.y) * columns + column(position.x)
        cellOfSlot[Int(slot)] = Int32(cell)
        indexInCell[Int(slot)] = Int32(cells[cell].count)
        cells[cell].append(Member(slot: slot, position: position))
        count += 1
    }

    /// - Complexity: O(1) (swap with the cell's last member).
    mutating func remove(_ slot: Int32) {
        let cell = Int(cellOfSlot[Int(slot)])
        precondition(cell >= 0, "slot not indexed")
        let index = Int(indexInCell[Int(slot)])
        let last = cells[cell].removeLast()
        if last.slot != slot {
            cells[cell][index] = last
            indexInCell[Int(last.slot)] = Int32(index)
        }
        cellOfSlot[Int(slot)] = -1
        indexInCell[Int(slot)] = -1
        count -= 1
    }

    /// Visits indexed taxis ring by ring around `position` and returns the `limit`
    /// smallest travel times among those `eligible` accepts, nearest first.
    /// Stops as soon as the next ring cannot hold anything faster than the
    /// current `limit`-th best (the estimator's lower bound).
    /// - Complexity: O(cells searched + taxis in them); independent of fleet size
    ///   when taxis are spread out.
    func nearest(to position: Position, limit: Int, at time: Double, travel: any TravelTimeEstimator,
                 eligible: (Int32) -> Bool) -> [(slot: Int32, eta: Double)] {
        guard limit > 0, count > 0 else { return [] }
        var best: [(slot: Int32, eta: Double)] = []
        best.reserveCapacity(limit + 1)
        // Once `limit` taxis are known, a taxi farther (straight line) than this radius
        // cannot beat the slowest of them: skip it without asking the estimator.
        var radiusSquared = Double.infinity
        let cx = column(position.x), cy = row(position.y)
        let maxRing = max(cx, columns - 1 - cx, cy, rows - 1 - cy)
        var ring = 0
        while ring <= maxRing {
            if best.count == limit, ring > 0 {
                // Shortest distance from the position to any cell of this ring.
                let gap = min(position.x - Double(cx - ring + 1) * cellSide,
                              Double(cx + ring) * cellSide - position.x,
                              position.y - Double(cy - ring + 1) * cellSide,
                              Double(cy + ring) * cellSide - position.y)
                if travel.lowerBoundTravelTime(straightLineDistance: max(0, gap), departingAt: time) >= best[limit - 1].eta {
                    break
                }
            }
            forEachCell(inRing: ring, aroundColumn: cx, row: cy) { cell in
                for member in cells[cell] {
                    let dx = member.position.x - position.x, dy = member.position.y - position.y
                    if dx * dx + dy * dy > radiusSquared || !eligible(member.slot) { continue }
                    let eta = travel.travelTime(from: member.position, to: position, departingAt: time)
                    if best.count == limit, eta >= best[limit - 1].eta { continue }
                    var at = best.count
                    while at > 0, best[at - 1].eta > eta || (best[at - 1].eta == eta && best[at - 1].slot > member.slot) { at -= 1 }
                    best.insert((member.slot, eta), at: at)
                    if best.count > limit { best.removeLast() }
                    if best.count == limit {
                        let radius = travel.reachableStraightLineDistance(within: best[limit - 1].eta, departingAt: time)
                        // A hair of slack so rounding never drops a taxi whose ETA ties the bound.
                        radiusSquared = radius.isFinite ? radius * radius * (1 + 1e-9) + 1e-6 : .infinity
                    }
                }
            }
            ring += 1
        }
        return best
    }

    private func forEachCell(inRing ring: Int, aroundColumn cx: Int, row cy: Int, _ body: (Int) -> Void) {
        if ring == 0 { body(cy * columns + cx); return }
        let x0 = cx - ring, x1 = cx + ring, y0 = cy - ring, y1 = cy + ring
        for y in max(0, y0)...min(rows - 1, y1) {
            let fullRow = y == y0 || y == y1
            if fullRow {
                for x in max(0, x0)...min(columns - 1, x1) { body(y * columns + x) }
            } else {
                if x0 >= 0 { body(y * columns + x0) }
                if x1 < columns { body(y * columns + x1) }
            }
        }
    }

    /// Problems with the index; empty when sound. `expected` maps each slot that
    /// should be indexed to its position.
    func invariantViolations(expected: [Int32: Position]) -> [String] {
        var problems: [String] = []
        if count != expected.count { problems.append("index holds \(count) taxis, \(expected.count) available") }
        for (cell, members) in cells.enumerated() {
            for (i, member) in members.enumerated() {
                if Int(cellOfSlot[Int(member.slot)]) != cell || Int(indexInCell[Int(member.slot)]) != i {
                    problems.append("index bookkeeping wrong for slot \(member.slot)")
                }
                if expected[member.slot] != member.position { problems.append("index has stale or unavailable slot \(member.slot)") }
            }
        }
        return problems
    }
}
