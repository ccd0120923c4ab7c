// MARK: - The closest-taxi search: rings of cells around the pickup, or every spot when few taxis are free

extension AvailableTaxiIndex {
    /// Visits indexed taxis ring by ring around `position` and keeps in `results` the
    /// `results.limit` smallest travel times among those `eligible` accepts, nearest first. Ties:
    /// taxis at one spot in the order they got there (a taxi rank), otherwise by
    /// the slot of the spot's first taxi.
    /// Stops as soon as the next ring cannot hold anything faster than the
    /// current `limit`-th best (the estimator's lower bound).
    /// - Complexity: O(cells searched + spots in them + ineligible taxis passed over);
    ///   independent of fleet size when taxis are spread out or gathered in spots. With `fewTaxis` or fewer
    ///   indexed, O(cells / 64 + taxis): every spot is looked at.
    /// Generic over the travel model, so that a concrete one (the grid's) is specialised into the walk with no
    /// call through a witness table per candidate.
    func nearest<Results: TaxiSearchResults, Travel: TravelTimeEstimator>(
        to position: Position, at time: Double, travel: Travel, into results: inout Results, eligible: (Int32) -> Bool
    ) {
        guard results.limit > 0, count > 0 else { return }
        if results.limit == 1, travel.queriesAreCostly,
           let seed = seedSpot(near: position, column: column(position.x), row: row(position.y), eligible: eligible) {
            // A graph search per query: start from the straight-line nearest eligible spot's ETA, and ask
            // every other spot only whether it beats the best so far (`BoundedETAs`).
            let from = slots[Int(seed)].position
            let seedETA = travel.travelTime(from: from, to: position, departingAt: time)
            let radius = travel.reachableStraightLineDistance(within: seedETA, departingAt: time)
            walk(to: position, at: time, travel: BoundedETAs(travel, seed: from, seedETA: seedETA),
                 radiusSquared: radius.isFinite ? radius * radius * (1 + 1e-9) + 1e-6 : .infinity,
                 into: &results, eligible: eligible)
            return
        }
        if count <= Self.fewTaxis {
            scanAll(to: position, at: time, travel: travel, into: &results, eligible: eligible)
        } else {
            walk(to: position, at: time, travel: travel, into: &results, eligible: eligible)
        }
    }

    /// With this many taxis or fewer, `nearest` looks at every spot (through the occupied bitmap) instead of
    /// walking rings: in an overloaded city with a taxi or two free, the rings to reach them cost more than
    /// the bitmap's words (the yardstick's grid city: a walk of ~5,700 instructions a request).
    static let fewTaxis = 8

    /// Calls `body` with each spot `cell` lists (its first taxi and position), in order. Read through the
    /// tables' buffers: `for member in cells[cell]` copied the cell's array out, a retain and a release per
    /// cell visited (51,000 pairs in the grid city's searches).
    @inline(__always)
    private func forEachSpot(inCell cell: Int, _ body: (Member) -> Void) {
        precondition(cells.indices.contains(cell), "cell \(cell) out of range")
        cells.withUnsafeBufferPointer { cells in
            cells[cell].withUnsafeBufferPointer { members in
                for member in members { body(member) }
            }
        }
    }

    /// `nearest` by looking at every spot, in cell order: the same taxis as `walk` (which taxis are kept
    /// depends only on the order `FoundTaxi.precedes` defines, not on the order spots are seen).
    private func scanAll<Results: TaxiSearchResults, Travel: TravelTimeEstimator>(
        to position: Position, at time: Double, travel: Travel, into results: inout Results, eligible: (Int32) -> Bool
    ) {
        var radiusSquared = Double.infinity
        // Once every spot has been considered the rest of the bitmap is empty: with one or two taxis free (the
        // grid city's every dispatch) the walk over its words was half the search.
        var spotsLeft = spotCount
        for word in occupied.indices where occupied[word] != 0 {
            var bits = occupied[word]
            while bits != 0 {
                let cell = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                forEachSpot(inCell: cell) { member in
                    consider(member, to: position, at: time, travel: travel, radiusSquared: &radiusSquared,
                             into: &results, eligible: eligible)
                }
                spotsLeft -= cells[cell].count
                if spotsLeft <= 0 { return }
            }
        }
    }

    /// `nearest`'s ring walk; spots farther than √`radiusSquared` are known not to be faster than one found.
    private func walk<Results: TaxiSearchResults, Travel: TravelTimeEstimator>(
        to position: Position, at time: Double, travel: Travel, radiusSquared initialRadiusSquared: Double = .infinity,
        into results: inout Results, eligible: (Int32) -> Bool
    ) {
        // Once `limit` taxis are known, a taxi farther (straight line) than this radius
        // cannot beat the slowest of them: skip it without asking the estimator.
        var radiusSquared = initialRadiusSquared
        let cx = column(position.x), cy = row(position.y)
        let maxRing = max(cx, columns - 1 - cx, cy, rows - 1 - cy)
        var ring = 0
        while ring <= maxRing {
            if ring > 0, let bound = results.bound {
                // Shortest distance from the position to any cell of this ring.
                let gap = min(position.x - Double(cx - ring + 1) * cellSide,
                              Double(cx + ring) * cellSide - position.x,
                              position.y - Double(cy - ring + 1) * cellSide,
                              Double(cy + ring) * cellSide - position.y)
                // Strictly above: a taxi out there whose ETA ties the slowest kept may still precede it (lower
                // spot), so the result does not depend on how the cells cut the city.
                if travel.lowerBoundTravelTime(straightLineDistance: max(0, gap), departingAt: time) > bound.eta {
                    break
                }
            }
            forEachCell(inRing: ring, aroundColumn: cx, row: cy) { cell in
                forEachSpot(inCell: cell) { member in
                    consider(member, to: position, at: time, travel: travel, radiusSquared: &radiusSquared,
                             into: &results, eligible: eligible)
                }
            }
            ring += 1
        }
    }

    /// A search's look at one spot: its eligible taxis are kept while they make the list, and once the list
    /// is full `radiusSquared` shrinks to what can still beat its last.
    @inline(__always)
    private func consider<Results: TaxiSearchResults, Travel: TravelTimeEstimator>(
        _ member: Member, to position: Position, at time: Double, travel: Travel, radiusSquared: inout Double,
        into results: inout Results, eligible: (Int32) -> Bool
    ) {
        let dx = member.position.x - position.x, dy = member.position.y - position.y
        if dx * dx + dy * dy > radiusSquared { return }
        let eta = travel.travelTime(from: member.position, to: position, departingAt: time)
        if let bound = results.bound, eta > bound.eta { return }
        // The spot's taxis in arrival order; each ranks after the one before, so the
        // search stops at the first eligible taxi that no longer makes the list.
        var taxi = member.slot, rank: Int32 = 0
        while taxi >= 0 {
            if eligible(taxi) {
                let found = FoundTaxi(slot: taxi, eta: eta, spot: member.slot, rank: rank)
                if let bound = results.bound, !found.precedes(bound) { break }
                results.keep(found)
            }
            taxi = slots[Int(taxi)].next
            rank += 1
        }
        if let bound = results.bound {
            let radius = travel.reachableStraightLineDistance(within: bound.eta, departingAt: time)
            // A hair of slack so rounding never drops a taxi whose ETA ties the bound.
            radiusSquared = radius.isFinite ? radius * radius * (1 + 1e-9) + 1e-6 : .infinity
        }
    }

    /// The spot nearest `position` in a straight line with an `eligible` taxi, in the first ring around
    /// the cell (`column`, `row`) that has one; nil when no indexed taxi is eligible.
    private func seedSpot(near position: Position, column cx: Int, row cy: Int, eligible: (Int32) -> Bool) -> Int32? {
        let maxRing = max(cx, columns - 1 - cx, cy, rows - 1 - cy)
        var ring = 0
        while ring <= maxRing {
            var nearest: Int32?, nearestSquared = Double.infinity
            forEachCell(inRing: ring, aroundColumn: cx, row: cy) { cell in
                forEachSpot(inCell: cell) { member in
                    let dx = member.position.x - position.x, dy = member.position.y - position.y
                    let squared = dx * dx + dy * dy
                    guard squared < nearestSquared else { return }
                    var taxi = member.slot
                    while taxi >= 0, !eligible(taxi) { taxi = slots[Int(taxi)].next }
                    if taxi >= 0 { nearest = member.slot; nearestSquared = squared }
                }
            }
            if nearest != nil { return nearest }
            ring += 1
        }
        return nil
    }

    /// Calls `body` for each occupied cell of the ring, in the order of the ring's rows (south to north) and,
    /// within a row, west to east.
    private func forEachCell(inRing ring: Int, aroundColumn cx: Int, row cy: Int, _ body: (Int) -> Void) {
        if ring == 0 {
            if isOccupied(cy * columns + cx) { body(cy * columns + cx) }
            return
        }
        let x0 = cx - ring, x1 = cx + ring, y0 = cy - ring, y1 = cy + ring
        for y in max(0, y0)...min(rows - 1, y1) {
            let fullRow = y == y0 || y == y1
            if fullRow {
                forEachOccupiedCell(from: y * columns + max(0, x0), through: y * columns + min(columns - 1, x1), body)
            } else {
                if x0 >= 0, isOccupied(y * columns + x0) { body(y * columns + x0) }
                if x1 < columns, isOccupied(y * columns + x1) { body(y * columns + x1) }
            }
        }
    }

    /// Calls `body` for each occupied cell of `first ... last`, in order, reading the bitmap a word at a time.
    @inline(__always)
    private func forEachOccupiedCell(from first: Int, through last: Int, _ body: (Int) -> Void) {
        var word = first >> 6
        var bits = occupied[word] & (~0 << UInt64(first & 63))
        let lastWord = last >> 6
        while true {
            if word == lastWord { bits &= ~0 >> UInt64(63 - (last & 63)) }
            while bits != 0 {
                body(word << 6 | bits.trailingZeroBitCount)
                bits &= bits &- 1
            }
            if word == lastWord { return }
            word += 1
            bits = occupied[word]
        }
    }
}
