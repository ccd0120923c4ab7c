import CacheHint

/// Where the core keeps each request it knows: an open request's slot in `DispatchCore.requests`, or an
/// ended request's index in `DispatchCore.ended`.
///
/// Hosts that number their requests consecutively (the simulator: 0, 1, 2 …) are filed in a plain array
/// indexed by id − `base` (4 bytes per request, no hashing on the hot path); any other id goes to a
/// dictionary. Invariant: an id is in at most one of the two; `dense[i] == Self.absent` only for an id
/// that was forgotten (archived); `base` only grows, past leading forgotten ids (`trimFront`).
struct RequestDirectory: Equatable, Codable {
    /// A location: `>= 0` an open request's slot, `<= -2` an ended request (`endedIndex(_:)`).
    typealias Location = Int32
    static let absent: Location = -1

    /// The location of an ended request kept at `index` of the ended table, and back.
    @inline(__always) static func ended(_ index: Int) -> Location { Location(truncatingIfNeeded: -2 - index) }
    @inline(__always) static func endedIndex(_ location: Location) -> Int { Int(-2 - location) }

    private(set) var base = 0
    private(set) var dense: [Location] = []
    private(set) var sparse: [RequestID: Location] = [:]

    /// The request's location, nil for an id the core does not know (never filed, or forgotten).
    @inline(__always) func location(of id: RequestID) -> Location? {
        let i = id.rawValue &- base
        if i >= 0, i < dense.count {
            let location = dense[i]
            if location != Self.absent { return location }
        }
        return sparse.isEmpty ? nil : sparse[id]
    }

    /// Makes room for `count` densely numbered requests.
    mutating func reserveCapacity(_ count: Int) { dense.reserveCapacity(count) }

    /// The dense table's room not used yet (`DispatchCore.unusedReservedStorage`).
    var unusedCapacity: UnsafeRawBufferPointer { dense.unusedCapacity }

    /// Starts loading the entries of the dense table of `ids` (raw request ids), the table looked up once for
    /// them all (a hint; nothing for an id outside it).
    mutating func prefetch(_ ids: UnsafeBufferPointer<Int32>) {
        let base = base
        dense.withUnsafeMutableBufferPointer { table in
            for id in ids { table.prefetchElement(Int(id) &- base) }
        }
    }

    /// Files a new request (its id not filed yet).
    mutating func add(_ id: RequestID, at location: Location) {
        if dense.isEmpty, sparse.isEmpty { base = id.rawValue }
        if id.rawValue == base &+ dense.count, base <= id.rawValue {
            dense.append(location)
        } else {
            sparse[id] = location
        }
    }

    /// Moves a filed request to another location.
    @inline(__always) mutating func move(_ id: RequestID, to location: Location) {
        let i = id.rawValue &- base
        if i >= 0, i < dense.count, dense[i] != Self.absent { dense[i] = location } else { sparse[id] = location }
    }

    /// Forgets a filed request.
    mutating func remove(_ id: RequestID) {
        let i = id.rawValue &- base
        if i >= 0, i < dense.count, dense[i] != Self.absent { dense[i] = Self.absent } else { sparse[id] = nil }
    }

    /// Drops the leading forgotten ids of the dense part, so a long-running host that archives its rides in
    /// about the order it made them keeps a table the size of the requests it still holds.
    mutating func trimFront() {
        let leading = dense.prefix { $0 == Self.absent }.count
        guard leading > 0 else { return }
        dense.removeFirst(leading)
        base += leading
    }

    /// Every filed request and its location (dense ones in id order, then the others in no order).
    func forEach(_ body: (RequestID, Location) -> Void) {
        for (i, location) in dense.enumerated() where location != Self.absent { body(RequestID(base + i), location) }
        for (id, location) in sparse { body(id, location) }
    }

    /// Changes every ended location through `remap` (the ended table was compacted).
    mutating func remapEnded(_ remap: (Int) -> Int) {
        for i in dense.indices where dense[i] <= -2 { dense[i] = Self.ended(remap(Self.endedIndex(dense[i]))) }
        for (id, location) in sparse where location <= -2 { sparse[id] = Self.ended(remap(Self.endedIndex(location))) }
    }

    /// Ids filed: in the array (forgotten ones excluded) and in the dictionary.
    var count: Int { dense.lazy.filter { $0 != Self.absent }.count + sparse.count }
    /// Entries the directory holds in memory, forgotten dense ones included.
    var footprint: Int { dense.count + sparse.count }
}
