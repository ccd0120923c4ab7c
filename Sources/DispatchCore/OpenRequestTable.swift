/// D12's table: each customer's open immediate request, at most one per customer.
///
/// Every immediate request looks its customer up, files itself and is struck off when it ends, so the
/// table sits on the request path. A `Dictionary` hashes each key with SipHash, and on the Python
/// yardstick's grid city (most requests refused at once) its lookups and removals took about 10 % of the
/// run. This is open addressing on the customer's raw id instead: Fibonacci hashing (one multiply), linear
/// probing, deletion by backward shift (no tombstones), at most half full.
///
/// Invariants: `buckets.count` is a power of two ≥ 8 and `2 · count ≤ buckets.count`; `count` is the
/// number of occupied buckets; no customer is in two buckets; every entry lies in the run of occupied
/// buckets that starts at its home bucket (`home(_:)`), so a lookup that meets an empty bucket may stop.
/// Equality is equality of the (customer, request) pairs, whatever the layout. It is encoded exactly as
/// the `[CustomerID: RequestID]` it replaces, so snapshots keep their format.
struct OpenRequestTable: Equatable, Sendable, Codable {
    /// One occupied bucket.
    struct Entry: Equatable, Sendable {
        let customer: CustomerID
        var request: RequestID
    }

    private var buckets: [Entry?]
    private(set) var count = 0
    /// 64 − log₂(`buckets.count`): the home bucket is the top bits of the multiplied id.
    private var shift: UInt64

    init() {
        buckets = Array(repeating: nil, count: 8)
        shift = 61
    }

    init(_ pairs: [CustomerID: RequestID]) {
        self.init()
        for (customer, request) in pairs { self[customer] = request }
    }

    /// The pairs as a dictionary.
    var dictionary: [CustomerID: RequestID] {
        var pairs: [CustomerID: RequestID] = [:]
        pairs.reserveCapacity(count)
        forEach { pairs[$0] = $1 }
        return pairs
    }

    /// Calls `body` with every (customer, request), in no particular order.
    func forEach(_ body: (CustomerID, RequestID) -> Void) {
        for case let entry? in buckets { body(entry.customer, entry.request) }
    }

    @inline(__always) private func home(_ customer: CustomerID) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(customer.rawValue)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The bucket holding `customer` (`found`), or else the empty bucket that ends its run, where it would go.
    @inline(__always) private func probe(_ customer: CustomerID) -> (index: Int, found: Bool) {
        let mask = buckets.count &- 1
        var i = home(customer)
        while let entry = buckets[i] {
            if entry.customer == customer { return (i, true) }
            i = (i &+ 1) & mask
        }
        return (i, false)
    }

    /// The customer's open request; setting nil strikes the customer off.
    subscript(customer: CustomerID) -> RequestID? {
        @inline(__always) get {
            let (i, found) = probe(customer)
            return found ? buckets[i]!.request : nil
        }
        set {
            if let request = newValue { insert(customer, request) } else { remove(customer) }
        }
    }

    private mutating func insert(_ customer: CustomerID, _ request: RequestID) {
        let probed = probe(customer)
        var i = probed.index
        if probed.found {
            buckets[i]!.request = request
            return
        }
        if 2 * (count + 1) > buckets.count {
            grow()
            i = probe(customer).index
        }
        buckets[i] = Entry(customer: customer, request: request)
        count += 1
    }

    private mutating func remove(_ customer: CustomerID) {
        let probed = probe(customer)
        guard probed.found else { return }
        var hole = probed.index
        let mask = buckets.count &- 1
        buckets[hole] = nil
        count -= 1
        // Backward shift: an entry after the hole moves into it unless its home lies cyclically in
        // (hole, i], where it would then sit before its home.
        var i = (hole &+ 1) & mask
        while let entry = buckets[i] {
            let h = home(entry.customer)
            let homeAfterHole = hole <= i ? (h > hole && h <= i) : (h > hole || h <= i)
            if !homeAfterHole {
                buckets[hole] = entry
                buckets[i] = nil
                hole = i
            }
            i = (i &+ 1) & mask
        }
    }

    private mutating func grow() {
        let old = buckets
        buckets = Array(repeating: nil, count: old.count * 2)
        shift -= 1
        count = 0
        for case let entry? in old { insert(entry.customer, entry.request) }
    }

    static func == (a: Self, b: Self) -> Bool {
        guard a.count == b.count else { return false }
        var same = true
        a.forEach { customer, request in same = same && b[customer] == request }
        return same
    }

    init(from decoder: any Decoder) throws {
        self.init(try [CustomerID: RequestID](from: decoder))
    }

    func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}
