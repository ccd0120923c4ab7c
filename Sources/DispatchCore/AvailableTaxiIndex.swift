/// A uniform grid over the city holding every available taxi, so the closest
/// available taxi (D6) is found by searching rings of cells outward from the
/// pickup instead of scanning the fleet.
///
/// Taxis at exactly the same position (a taxi rank, a hotspot where idle taxis
/// gather) form one *spot*: the cell lists the spot once, by its first taxi,
/// and the others hang off it in arrival order. A search computes one travel
/// time per spot and stops walking a spot as soon as it has what it needs, so a
/// pile of thousands of taxis costs what one taxi costs.
///
/// The cells halve while the taxis outnumber them 8 to 1 (`refine`), so a dense
/// fleet is searched in a few taxis per cell whatever the zones' size.
///
/// Invariant: each indexed slot is in exactly one spot, in the cell containing
/// its position; a cell lists exactly the first taxi of each of its spots;
/// `cellOfSlot[s] == -1` exactly when `s` is not indexed.
struct AvailableTaxiIndex: Equatable, Codable {
    /// The first taxi of a spot, as the cell lists it.
    struct Member: Equatable, Codable { var slot: Int32; var position: Position }

    /// The side of a cell, metres: the given one at first, halved while the taxis outnumber the cells
    /// `crowding` to 1 (down to `finestCellSide`), so a dense fleet is searched in few taxis per cell.
    private(set) var cellSide: Double
    private(set) var columns: Int
    private(set) var rows: Int
    private let width: Double, height: Double
    /// Taxis per cell, on average, beyond which the cells are halved.
    static let crowding = 8
    /// Cells are not halved below this side, metres.
    static let finestCellSide = 125.0
    private var cells: [[Member]]
    private var cellOfSlot: [Int32] = []
    /// Index in its cell for a spot's first taxi, -1 for the others.
    private var indexInCell: [Int32] = []
    /// The spot's taxis in arrival order: next (-1 at the end) and previous (-1 at the first).
    private var nextAtSpot: [Int32] = []
    private var previousAtSpot: [Int32] = []
    /// The spot's last taxi, kept by its first taxi.
    private var lastAtSpot: [Int32] = []
    private var positionOfSlot: [Position] = []
    /// The first taxi of every spot by its position (derived from `cells`: not encoded, rebuilt when decoded).
    private var spots = SpotTable()
    /// One bit per cell, set while the cell holds a spot (derived from `cells`), so a search passes over
    /// empty cells 64 at a time instead of reading each cell's list.
    private var occupied: [UInt64] = []
    private(set) var count = 0

    private enum CodingKeys: String, CodingKey {
        case cellSide, columns, rows, width, height, cells, cellOfSlot, indexInCell, nextAtSpot, previousAtSpot,
             lastAtSpot, positionOfSlot, count
    }

    init(width: Double, height: Double, cellSide: Double) {
        self.cellSide = cellSide
        self.width = width
        self.height = height
        columns = max(1, Int((width / cellSide).rounded(.up)))
        rows = max(1, Int((height / cellSide).rounded(.up)))
        cells = Array(repeating: [], count: columns * rows)
        occupied = Array(repeating: 0, count: (cells.count + 63) / 64)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cellSide = try c.decode(Double.self, forKey: .cellSide)
        columns = try c.decode(Int.self, forKey: .columns)
        rows = try c.decode(Int.self, forKey: .rows)
        width = try c.decode(Double.self, forKey: .width)
        height = try c.decode(Double.self, forKey: .height)
        cells = try c.decode([[Member]].self, forKey: .cells)
        cellOfSlot = try c.decode([Int32].self, forKey: .cellOfSlot)
        indexInCell = try c.decode([Int32].self, forKey: .indexInCell)
        nextAtSpot = try c.decode([Int32].self, forKey: .nextAtSpot)
        previousAtSpot = try c.decode([Int32].self, forKey: .previousAtSpot)
        lastAtSpot = try c.decode([Int32].self, forKey: .lastAtSpot)
        positionOfSlot = try c.decode([Position].self, forKey: .positionOfSlot)
        count = try c.decode(Int.self, forKey: .count)
        for member in cells.joined() { spots.setFirst(member.slot, at: member.position) }
        occupied = Array(repeating: 0, count: (cells.count + 63) / 64)
        for cell in cells.indices where !cells[cell].isEmpty { markOccupied(cell) }
    }

    mutating func addSlot() {
        cellOfSlot.append(-1)
        indexInCell.append(-1)
        nextAtSpot.append(-1)
        previousAtSpot.append(-1)
        lastAtSpot.append(-1)
        positionOfSlot.append(Position(x: 0, y: 0))
    }

    @inline(__always) private func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(x / cellSide))) }
    @inline(__always) private func row(_ y: Double) -> Int { min(rows - 1, max(0, Int(y / cellSide))) }

    func contains(_ slot: Int32) -> Bool { cellOfSlot[Int(slot)] >= 0 }

    /// Adds the taxi at the end of the spot at `position` (a new spot when none is there).
    /// - Complexity: O(spots in the cell), which a search of that cell costs anyway.
    mutating func insert(_ slot: Int32, at position: Position) {
        let s = Int(slot)
        precondition(cellOfSlot[s] < 0, "slot already indexed")
        let cell = row(position.y) * columns + column(position.x)
        cellOfSlot[s] = Int32(cell)
        positionOfSlot[s] = position
        nextAtSpot[s] = -1
        count += 1
        if let first = spots.first(at: position) {
            let last = lastAtSpot[Int(first)]
            nextAtSpot[Int(last)] = slot
            previousAtSpot[s] = last
            lastAtSpot[Int(first)] = slot
            indexInCell[s] = -1
        } else {
            previousAtSpot[s] = -1
            lastAtSpot[s] = slot
            indexInCell[s] = Int32(cells[cell].count)
            cells[cell].append(Member(slot: slot, position: position))
            spots.setFirst(slot, at: position)
            markOccupied(cell)
        }
        if count > Self.crowding * cells.count, cellSide / 2 >= Self.finestCellSide { refine() }
    }

    /// Halves the cells and moves every spot, whole, into its new cell: spots and their arrival order are
    /// unchanged, so every search finds the same taxis (its result is ordered by ETA, spot and arrival only).
    private mutating func refine() {
        let old = cells
        cellSide /= 2
        columns = max(1, Int((width / cellSide).rounded(.up)))
        rows = max(1, Int((height / cellSide).rounded(.up)))
        cells = Array(repeating: [], count: columns * rows)
        occupied = Array(repeating: 0, count: (cells.count + 63) / 64)
        for member in old.joined() {
            let cell = row(member.position.y) * columns + column(member.position.x)
            indexInCell[Int(member.slot)] = Int32(cells[cell].count)
            cells[cell].append(member)
            markOccupied(cell)
            var taxi = member.slot
            while taxi >= 0 {
                cellOfSlot[Int(taxi)] = Int32(cell)
                taxi = nextAtSpot[Int(taxi)]
            }
        }
    }

    /// The first taxi of the spot at `position`, found by scanning the cell's spots (the invariant check's
    /// reference for `spots`).
    private func firstTaxi(at position: Position, inCell cell: Int) -> Int32? {
        for member in cells[cell] where member.position == position { return member.slot }
        return nil
    }

    /// - Complexity: O(1) (the next taxi of the spot takes the first one's place, or the cell's
    ///   last spot takes an emptied spot's place).
    mutating func remove(_ slot: Int32) {
        let s = Int(slot)
        let cell = Int(cellOfSlot[s])
        precondition(cell >= 0, "slot not indexed")
        let next = nextAtSpot[s]
        let index = Int(indexInCell[s])
        if index >= 0 {  // the spot's first taxi
            if next >= 0 {
                cells[cell][index].slot = next
                indexInCell[Int(next)] = Int32(index)
                previousAtSpot[Int(next)] = -1
                lastAtSpot[Int(next)] = lastAtSpot[s]
                spots.setFirst(next, at: positionOfSlot[s])
            } else {
                spots.remove(at: positionOfSlot[s])
                let moved = cells[cell].removeLast()
                if moved.slot != slot {
                    cells[cell][index] = moved
                    indexInCell[Int(moved.slot)] = Int32(index)
                }
                if cells[cell].isEmpty { occupied[cell >> 6] &= ~(1 << UInt64(cell & 63)) }
            }
        } else {
            let previous = previousAtSpot[s]
            nextAtSpot[Int(previous)] = next
            if next >= 0 {
                previousAtSpot[Int(next)] = previous
            } else {
                lastAtSpot[Int(spots.first(at: positionOfSlot[s])!)] = previous
            }
        }
        cellOfSlot[s] = -1
        indexInCell[s] = -1
        nextAtSpot[s] = -1
        previousAtSpot[s] = -1
        lastAtSpot[s] = -1
        count -= 1
    }

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
            let from = positionOfSlot[Int(seed)]
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

    /// `nearest` by looking at every spot, in cell order: the same taxis as `walk` (which taxis are kept
    /// depends only on the order `FoundTaxi.precedes` defines, not on the order spots are seen).
    private func scanAll<Results: TaxiSearchResults, Travel: TravelTimeEstimator>(
        to position: Position, at time: Double, travel: Travel, into results: inout Results, eligible: (Int32) -> Bool
    ) {
        var radiusSquared = Double.infinity
        for word in occupied.indices where occupied[word] != 0 {
            var bits = occupied[word]
            while bits != 0 {
                let cell = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                for member in cells[cell] {
                    consider(member, to: position, at: time, travel: travel, radiusSquared: &radiusSquared,
                             into: &results, eligible: eligible)
                }
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
                for member in cells[cell] {
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
            taxi = nextAtSpot[Int(taxi)]
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
                for member in cells[cell] {
                    let dx = member.position.x - position.x, dy = member.position.y - position.y
                    let squared = dx * dx + dy * dy
                    guard squared < nearestSquared else { continue }
                    var taxi = member.slot
                    while taxi >= 0, !eligible(taxi) { taxi = nextAtSpot[Int(taxi)] }
                    if taxi >= 0 { nearest = member.slot; nearestSquared = squared }
                }
            }
            if nearest != nil { return nearest }
            ring += 1
        }
        return nil
    }

    @inline(__always) private mutating func markOccupied(_ cell: Int) { occupied[cell >> 6] |= 1 << UInt64(cell & 63) }

    @inline(__always) private func isOccupied(_ cell: Int) -> Bool { occupied[cell >> 6] & (1 << UInt64(cell & 63)) != 0 }

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

    /// Problems with the index; empty when sound. `expected` maps each slot that
    /// should be indexed to its position.
    /// Whether every per-slot table has `slots` entries and every slot or cell reference is in range
    /// (a restored snapshot's index is then safe to walk; `invariantViolations` checks the rest).
    func fits(slots: Int) -> Bool {
        let tables = [cellOfSlot, indexInCell, nextAtSpot, previousAtSpot, lastAtSpot]
        guard tables.allSatisfy({ $0.count == slots }), positionOfSlot.count == slots, cells.count == columns * rows,
              cellOfSlot.allSatisfy({ $0 >= -1 && Int($0) < cells.count }) else { return false }
        return [nextAtSpot, previousAtSpot, lastAtSpot].allSatisfy { $0.allSatisfy { $0 >= -1 && Int($0) < slots } }
            && cells.allSatisfy { $0.allSatisfy { $0.slot >= 0 && Int($0.slot) < slots } }
            && indexInCell.allSatisfy { $0 >= -1 }
    }

    func invariantViolations(expected: [Int32: Position]) -> [String] {
        var problems: [String] = []
        if count != expected.count { problems.append("index holds \(count) taxis, \(expected.count) available") }
        var seen = 0
        for (cell, members) in cells.enumerated() {
            for (i, member) in members.enumerated() {
                if Int(indexInCell[Int(member.slot)]) != i || previousAtSpot[Int(member.slot)] != -1
                    || firstTaxi(at: member.position, inCell: cell) != member.slot {
                    problems.append("index bookkeeping wrong for spot of slot \(member.slot)")
                }
                var taxi = member.slot, last: Int32 = -1
                while taxi >= 0, seen <= count {
                    seen += 1
                    if Int(cellOfSlot[Int(taxi)]) != cell || positionOfSlot[Int(taxi)] != member.position
                        || (last >= 0 && (indexInCell[Int(taxi)] != -1 || previousAtSpot[Int(taxi)] != last)) {
                        problems.append("index bookkeeping wrong for slot \(taxi)")
                    }
                    if expected[taxi] != member.position { problems.append("index has stale or unavailable slot \(taxi)") }
                    last = taxi
                    taxi = nextAtSpot[Int(taxi)]
                }
                if lastAtSpot[Int(member.slot)] != last { problems.append("spot of slot \(member.slot) has a wrong last taxi") }
            }
        }
        if seen != count { problems.append("index links \(seen) taxis but counts \(count)") }
        for cell in cells.indices where isOccupied(cell) == cells[cell].isEmpty {
            problems.append("cell \(cell)'s occupied bit is wrong")
        }
        let spotCount = cells.reduce(0) { $0 + $1.count }
        if spots.count != spotCount { problems.append("spot table holds \(spots.count) spots, the cells \(spotCount)") }
        for member in cells.joined() where spots.first(at: member.position) != member.slot {
            problems.append("spot table has the wrong first taxi for the spot of slot \(member.slot)")
        }
        return problems
    }
}
