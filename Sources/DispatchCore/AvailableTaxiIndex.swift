import CacheHint

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
/// The cells halve while the taxis outnumber them 4 to 1 (`refine`), so a dense
/// fleet is searched in a few taxis per cell whatever the zones' size.
///
/// Invariant: each indexed slot is in exactly one spot, in the cell containing
/// its position; a cell lists exactly the first taxi of each of its spots;
/// `slots[s].cell == -1` exactly when `s` is not indexed.
struct AvailableTaxiIndex: Equatable, Codable {
    /// The first taxi of a spot, as the cell lists it.
    struct Member: Equatable, Codable { var slot: Int32; var position: Position }

    /// The side of a cell, metres: the given one at first, halved while the taxis outnumber the cells
    /// `crowding` to 1 (down to `finestCellSide`), so a dense fleet is searched in few taxis per cell.
    private(set) var cellSide: Double
    private(set) var columns: Int
    private(set) var rows: Int
    private let width: Double, height: Double
    /// Taxis per cell, on average, beyond which the cells are halved. (8 before: city-scale's taxis gather
    /// in its centre, so its 1 km cells held a hundred spots each and a closest-taxi search from an empty
    /// zone read ~1,000 of them; 4 gives it 250 m cells, 30 % fewer instructions in those searches.)
    static let crowding = 4
    /// Cells are not halved below this side, metres.
    static let finestCellSide = 125.0
    private(set) var cells: [[Member]]
    /// What the index keeps of each slot, in one record (40 bytes): one cache line and one uniqueness check
    /// for a taxi's insertion or removal instead of six.
    struct Slot: Equatable {
        /// The cell holding the taxi, -1 when it is not indexed.
        var cell: Int32 = -1
        /// Index in its cell for a spot's first taxi, -1 for the others.
        var indexInCell: Int32 = -1
        /// The spot's taxis in arrival order: next (-1 at the end) and previous (-1 at the first).
        var next: Int32 = -1
        var previous: Int32 = -1
        /// The spot's last taxi, kept by its first taxi.
        var last: Int32 = -1
        var position = Position(x: 0, y: 0)
    }
    private(set) var slots: [Slot] = []
    /// The first taxi of every spot by its position (derived from `cells`: not encoded, rebuilt when decoded).
    private var spots = SpotTable()
    /// One bit per cell, set while the cell holds a spot (derived from `cells`), so a search passes over
    /// empty cells 64 at a time instead of reading each cell's list.
    private(set) var occupied: [UInt64] = []
    private(set) var count = 0
    /// Spots (distinct positions) holding a taxi: one member of a cell each.
    var spotCount: Int { spots.count }

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
        // The snapshot keeps one array per field (its format before the records): read them side by side.
        let cellOfSlot = try c.decode([Int32].self, forKey: .cellOfSlot)
        let indexInCell = try c.decode([Int32].self, forKey: .indexInCell)
        let nextAtSpot = try c.decode([Int32].self, forKey: .nextAtSpot)
        let previousAtSpot = try c.decode([Int32].self, forKey: .previousAtSpot)
        let lastAtSpot = try c.decode([Int32].self, forKey: .lastAtSpot)
        let positionOfSlot = try c.decode([Position].self, forKey: .positionOfSlot)
        guard [indexInCell.count, nextAtSpot.count, previousAtSpot.count, lastAtSpot.count, positionOfSlot.count]
                .allSatisfy({ $0 == cellOfSlot.count }) else {
            throw DecodingError.dataCorruptedError(forKey: .cellOfSlot, in: c,
                                                   debugDescription: "the taxi index's per-slot tables differ in length")
        }
        slots = cellOfSlot.indices.map {
            Slot(cell: cellOfSlot[$0], indexInCell: indexInCell[$0], next: nextAtSpot[$0],
                 previous: previousAtSpot[$0], last: lastAtSpot[$0], position: positionOfSlot[$0])
        }
        count = try c.decode(Int.self, forKey: .count)
        for member in cells.joined() { spots.setFirst(member.slot, at: member.position) }
        occupied = Array(repeating: 0, count: (cells.count + 63) / 64)
        for cell in cells.indices where !cells[cell].isEmpty { markOccupied(cell) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cellSide, forKey: .cellSide)
        try c.encode(columns, forKey: .columns)
        try c.encode(rows, forKey: .rows)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(cells, forKey: .cells)
        try c.encode(slots.map(\.cell), forKey: .cellOfSlot)
        try c.encode(slots.map(\.indexInCell), forKey: .indexInCell)
        try c.encode(slots.map(\.next), forKey: .nextAtSpot)
        try c.encode(slots.map(\.previous), forKey: .previousAtSpot)
        try c.encode(slots.map(\.last), forKey: .lastAtSpot)
        try c.encode(slots.map(\.position), forKey: .positionOfSlot)
        try c.encode(count, forKey: .count)
    }

    mutating func addSlot() { slots.append(Slot()) }

    /// Starts loading slot `slot`'s record (a cache hint: changes nothing; ignored for an unknown slot).
    @inline(__always)
    mutating func prefetch(slot: Int) { slots.prefetchElement(slot) }

    @inline(__always) func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(x / cellSide))) }
    @inline(__always) func row(_ y: Double) -> Int { min(rows - 1, max(0, Int(y / cellSide))) }

    func contains(_ slot: Int32) -> Bool { slots[Int(slot)].cell >= 0 }

    /// Adds the taxi at the end of the spot at `position` (a new spot when none is there).
    /// - Complexity: O(spots in the cell), which a search of that cell costs anyway.
    mutating func insert(_ slot: Int32, at position: Position) {
        let s = Int(slot)
        precondition(slots[s].cell < 0, "slot already indexed")
        let cell = row(position.y) * columns + column(position.x)
        count += 1
        if let first = spots.firstOrStart(slot, at: position) {
            let last = slots[Int(first)].last
            slots[Int(last)].next = slot
            slots[Int(first)].last = slot
            slots[s] = Slot(cell: Int32(cell), indexInCell: -1, next: -1, previous: last, last: -1, position: position)
        } else {  // the taxi starts a spot (`spots` has it now)
            slots[s] = Slot(cell: Int32(cell), indexInCell: Int32(cells[cell].count), next: -1, previous: -1, last: slot,
                            position: position)
            cells[cell].append(Member(slot: slot, position: position))
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
            slots[Int(member.slot)].indexInCell = Int32(cells[cell].count)
            cells[cell].append(member)
            markOccupied(cell)
            var taxi = member.slot
            while taxi >= 0 {
                slots[Int(taxi)].cell = Int32(cell)
                taxi = slots[Int(taxi)].next
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
        let leaving = slots[s]
        let cell = Int(leaving.cell)
        precondition(cell >= 0, "slot not indexed")
        let next = leaving.next
        let index = Int(leaving.indexInCell)
        if index >= 0 {  // the spot's first taxi
            if next >= 0 {
                cells[cell][index].slot = next
                slots[Int(next)].indexInCell = Int32(index)
                slots[Int(next)].previous = -1
                slots[Int(next)].last = leaving.last
                spots.setFirst(next, at: leaving.position)
            } else {
                spots.remove(at: leaving.position)
                let moved = cells[cell].removeLast()
                if moved.slot != slot {
                    cells[cell][index] = moved
                    slots[Int(moved.slot)].indexInCell = Int32(index)
                }
                if cells[cell].isEmpty { occupied[cell >> 6] &= ~(1 << UInt64(cell & 63)) }
            }
        } else {
            let previous = leaving.previous
            slots[Int(previous)].next = next
            if next >= 0 {
                slots[Int(next)].previous = previous
            } else {
                slots[Int(spots.first(at: leaving.position)!)].last = previous
            }
        }
        slots[s] = Slot(position: leaving.position)
        count -= 1
    }

    @inline(__always) private mutating func markOccupied(_ cell: Int) { occupied[cell >> 6] |= 1 << UInt64(cell & 63) }

    @inline(__always) func isOccupied(_ cell: Int) -> Bool { occupied[cell >> 6] & (1 << UInt64(cell & 63)) != 0 }

    /// Problems with the index; empty when sound. `expected` maps each slot that
    /// should be indexed to its position.
    /// Whether every per-slot table has `slots` entries and every slot or cell reference is in range
    /// (a restored snapshot's index is then safe to walk; `invariantViolations` checks the rest).
    func fits(slots: Int) -> Bool {
        let count = slots
        guard self.slots.count == count, cells.count == columns * rows,
              self.slots.allSatisfy({ $0.cell >= -1 && Int($0.cell) < cells.count }) else { return false }
        return self.slots.allSatisfy { [$0.next, $0.previous, $0.last].allSatisfy { $0 >= -1 && Int($0) < count } }
            && cells.allSatisfy { $0.allSatisfy { $0.slot >= 0 && Int($0.slot) < count } }
            && self.slots.allSatisfy { $0.indexInCell >= -1 }
    }

    func invariantViolations(expected: [Int32: Position]) -> [String] {
        var problems: [String] = []
        if count != expected.count { problems.append("index holds \(count) taxis, \(expected.count) available") }
        var seen = 0
        for (cell, members) in cells.enumerated() {
            for (i, member) in members.enumerated() {
                if Int(slots[Int(member.slot)].indexInCell) != i || slots[Int(member.slot)].previous != -1
                    || firstTaxi(at: member.position, inCell: cell) != member.slot {
                    problems.append("index bookkeeping wrong for spot of slot \(member.slot)")
                }
                var taxi = member.slot, last: Int32 = -1
                while taxi >= 0, seen <= count {
                    seen += 1
                    let entry = slots[Int(taxi)]
                    if Int(entry.cell) != cell || entry.position != member.position
                        || (last >= 0 && (entry.indexInCell != -1 || entry.previous != last)) {
                        problems.append("index bookkeeping wrong for slot \(taxi)")
                    }
                    if expected[taxi] != member.position { problems.append("index has stale or unavailable slot \(taxi)") }
                    last = taxi
                    taxi = entry.next
                }
                if slots[Int(member.slot)].last != last { problems.append("spot of slot \(member.slot) has a wrong last taxi") }
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
