import DispatchCore

/// Recent snaps of `RoadRouter`, so that a position asked about again (an idle taxi's, a pickup point's)
/// is not searched for again: a direct-mapped table of 16,384 entries (0.9 MB) keyed by the position's exact bits.
///
/// Invariant: an entry holds the snap that `SnapIndex.nearest` gave for exactly its position, so a hit
/// returns what a fresh search would.
struct SnapCache {
    static let size = 16_384
    private var positions = [Position](repeating: Position(x: .nan, y: .nan), count: size)
    private var snaps = [RoadSnap](repeating: RoadSnap(edge: 0, fraction: 0, point: Position(x: 0, y: 0), distance: 0), count: size)

    /// The cached snap of `position`, or `search(position)` stored in its slot.
    mutating func snap(_ position: Position, search: (Position) -> RoadSnap) -> RoadSnap {
        let mixed = (position.x.bitPattern &* 0x9E37_79B9_7F4A_7C15) ^ (position.y.bitPattern &* 0xC2B2_AE3D_27D4_EB4F)
        let slot = Int(truncatingIfNeeded: mixed >> 50)
        // NaN never equals itself, so empty slots always miss.
        if positions[slot] == position { return snaps[slot] }
        let found = search(position)
        positions[slot] = position
        snaps[slot] = found
        return found
    }
}

/// The one or two drivable directions of a snapped segment, without an array.
struct Directions: Sequence {
    let first: (edge: Int, fraction: Double)
    let second: (edge: Int, fraction: Double)?

    struct Iterator: IteratorProtocol {
        let directions: Directions
        var index = 0

        mutating func next() -> (edge: Int, fraction: Double)? {
            defer { index += 1 }
            return index == 0 ? directions.first : index == 1 ? directions.second : nil
        }
    }

    func makeIterator() -> Iterator { Iterator(directions: self) }
}
