import CCacheHint

/// A table of records by slot (the core's drivers and open requests, the simulator's drivers): one
/// allocation that its owner alone holds.
///
/// A `[Record]` stored in a class tests, at every write of a field (`drivers[s].status = …`), that no one
/// else holds its buffer (`swift_isUniquelyReferenced`, a call of ~10 instructions). This table cannot be
/// shared, since it is noncopyable, so a write is a bounds check and a store. What must leave its owner
/// (a snapshot, a summary, a test's look) takes an `Array` copy: `elements`.
///
/// Invariant: `0 <= count <= capacity`; `base[0 ..< count]` are initialised records and the rest of the
/// allocation is not; the allocation is freed with the table. Reads and writes past `count` trap.
public struct RecordTable<Record>: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<Record>
    @usableFromInline var storedCount: Int
    @usableFromInline var storedCapacity: Int

    /// Records in the table: slots `0 ..< count`.
    @inlinable public var count: Int { storedCount }
    /// Records the allocation holds before the table has to move (always at least 1).
    @inlinable public var capacity: Int { storedCapacity }

    public init() {
        base = .allocate(capacity: 1)
        storedCount = 0
        storedCapacity = 1
    }

    /// A table of `records`, in order.
    public init(_ records: [Record]) {
        storedCapacity = max(1, records.count)
        base = .allocate(capacity: storedCapacity)
        storedCount = records.count
        records.withUnsafeBufferPointer { buffer in
            if let start = buffer.baseAddress { base.initialize(from: start, count: buffer.count) }
        }
    }

    // Inlinable: with an opaque deinit, Swift 6.3.1's optimizer crashed inlining the owner's setter of a table
    // ("Should never be inlining a resilient function into a fragile function").
    @inlinable deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The record in `slot`, read and written in place (by address: reading one field copies no record).
    @inlinable
    public subscript(slot: Int) -> Record {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "record slot out of range")
            return UnsafePointer(base + slot)
        }
        @inline(__always) unsafeMutableAddress {
            precondition(UInt(bitPattern: slot) < UInt(bitPattern: count), "record slot out of range")
            return base + slot
        }
    }

    /// The slots in use: `0 ..< count`.
    @inlinable public var indices: Range<Int> { 0 ..< count }

    /// A copy of the records, in slot order.
    public var elements: [Record] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// `transform` of each record, in slot order (no copy of the table on the way).
    ///
    /// The four walks below are inlinable so that they are specialised for the record type where they are
    /// called: the generic versions copied each record out through its value witness (a `SimDriver`, ~300 bytes
    /// and a retain, per visit: 13,000 per hourly sample of city-scale's fleet, 1.7 M instructions each).
    @inlinable
    public func map<T>(_ transform: (Record) throws -> T) rethrows -> [T] {
        var mapped: [T] = []
        mapped.reserveCapacity(count)
        for slot in indices { mapped.append(try transform(base[slot])) }
        return mapped
    }

    /// The sum of `value` over the records, added in slot order.
    @inlinable
    public func sum<T: AdditiveArithmetic>(_ value: (Record) throws -> T) rethrows -> T {
        var total = T.zero
        for slot in indices { total += try value(base[slot]) }
        return total
    }

    /// The first record that satisfies `predicate`, in slot order.
    @inlinable
    public func first(where predicate: (Record) throws -> Bool) rethrows -> Record? {
        for slot in indices where try predicate(base[slot]) { return base[slot] }
        return nil
    }

    /// How many records satisfy `predicate`.
    @inlinable
    public func count(where predicate: (Record) throws -> Bool) rethrows -> Int {
        var matches = 0
        for slot in indices where try predicate(base[slot]) { matches += 1 }
        return matches
    }

    /// Adds `record` in slot `count`.
    @inlinable
    public mutating func append(_ record: consuming Record) {
        if count == capacity { grow(to: capacity * 2) }
        (base + count).initialize(to: record)
        storedCount &+= 1
    }

    /// Makes room for `minimumCapacity` records, so appends up to there do not move the table.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    /// Moves the records to an allocation of `newCapacity` (> `count`).
    @usableFromInline
    mutating func grow(to newCapacity: Int) {
        let moved = UnsafeMutablePointer<Record>.allocate(capacity: newCapacity)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        storedCapacity = newCapacity
    }

    /// Exchanges the records of two slots.
    public mutating func swapAt(_ i: Int, _ j: Int) {
        precondition(indices.contains(i) && indices.contains(j), "record slot out of range")
        swap(&base[i], &base[j])
    }

    /// Drops the last `k` records (`0 <= k <= count`).
    public mutating func removeLast(_ k: Int) {
        precondition(k >= 0 && k <= count, "cannot remove \(k) of \(count) records")
        (base + (count - k)).deinitialize(count: k)
        storedCount -= k
    }

    /// Starts loading the record in `slot` into the cache: a hint that reads and changes nothing, and does
    /// nothing for a slot out of range.
    @inlinable @inline(__always)
    public func prefetchElement(_ slot: Int) {
        guard UInt(bitPattern: slot) < UInt(bitPattern: count) else { return }
        citysim_prefetch_range(base + slot, MemoryLayout<Record>.stride)
    }
}
