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
    private(set) var cells: [[Member]]
    private var cellOfSlot: [Int32] = []
    /// Index in its cell for a spot's first taxi, -1 for the others.
    private var indexInCell: [Int32] = []
    /// The spot's taxis in arrival order: next (-1 at the end) and previous (-1 at the first).
    private(set) var nextAtSpot: [Int32] = []
    private var previousAtSpot: [Int32] = []
    /// The spot's last taxi, kept by its first taxi.
    private var lastAtSpot: [Int32] = []
    private(set) var positionOfSlot: [Position] = []
    /// The first taxi of every spot by its position (derived from `cells`: not encoded, rebuilt when decoded).
    private var spots = SpotTable()
    /// One bit per cell, set while the cell holds a spot (derived from `cells`), so a search passes over
    /// empty cells 64 at a time instead of reading each cell's list.
    private(set) var occupied: [UInt64] = []
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

    @inline(__always) func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(x / cellSide))) }
    @inline(__always) func row(_ y: Double) -> Int { min(rows - 1, max(0, Int(y / cellSide))) }

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

    @inline(__always) private mutating func markOccupied(_ cell: Int) { occupied[cell >> 6] |= 1 << UInt64(cell & 63) }

    @inline(__always) func isOccupied(_ cell: Int) -> Bool { occupied[cell >> 6] & (1 << UInt64(cell & 63)) != 0 }

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
