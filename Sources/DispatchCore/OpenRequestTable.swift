/// D12's table: each customer's open immediate request, at most one per customer.
///
/// Every immediate request looks its customer up, files itself and is struck off when it ends, so the
/// table sits on the request path. A `Dictionary` hashes each key with SipHash, and on the Python
/// yardstick's grid city (most requests refused at once) its lookups and removals took about 10 % of the
/// run. This is open addressing on the customer's raw id instead: Fibonacci hashing (one multiply), linear
/// probing, deletion by backward shift (no tombstones), at most half full.
///
/// A host whose customer ids are dense from 0 (the simulator numbers its customers in arrival order, or
/// draws them from a population) sets a range of ids held in a plain array instead (`reserveDense`):
/// filing, looking up and striking off are then one load or store at the id, and the open customers,
/// recent ids, lie together in cache. Hashed, each was a miss at a random bucket of a megabyte-sized table:
/// D12's probes were ~9 % of megacity's loop (perf, session 30). Ids outside the range, and requests whose
/// id does not fit a slot, stay hashed.
///
/// Invariants: `buckets.count` is a power of two ≥ 8 and `2 · hashed ≤ buckets.count`; `hashed` is the
/// number of occupied buckets and `filedDense` the number of slots of `dense` that are not `Self.vacant`;
/// no customer is in two buckets, nor in a bucket and a slot; every entry lies in the run of occupied
/// buckets that starts at its home bucket (`home(_:)`), so a lookup that meets an empty bucket may stop;
/// `hashedInDenseRange` counts the buckets whose customer lies in `0..<dense.count` (their request did not
/// fit a slot). Equality is equality of the (customer, request) pairs, whatever the layout. It is encoded
/// exactly as the `[CustomerID: RequestID]` it replaces, so snapshots keep their format.
struct OpenRequestTable: Equatable, Sendable, Codable {
    /// One occupied bucket.
    struct Entry: Equatable, Sendable {
        let customer: CustomerID
        var request: RequestID
    }

    private var buckets: [Entry?]
    private var hashed = 0
    /// 64 − log₂(`buckets.count`): the home bucket is the top bits of the multiplied id.
    private var shift: UInt64
    /// Customer `c` in `0..<dense.count` has open request `dense[c]`, or none if it is `Self.vacant` (and
    /// `hashedInDenseRange` is 0, else the buckets may hold it).
    private var dense: [Int32] = []
    private var filedDense = 0
    /// One past the highest id ever filed in `dense`: `forEach` walks down from it (the simulator's open
    /// customers are its latest ones) and stops once it has met `filedDense` of them.
    private var denseEnd = 0
    /// Customers of the dense range held in the buckets, their request not fitting a slot (tests read it).
    private(set) var hashedInDenseRange = 0
    private static let vacant: Int32 = -1

    /// The number of customers with an open request.
    var count: Int { hashed + filedDense }

    /// The bytes of the dense range's array, which grows with the host's expected requests, not the open ones.
    var denseBytes: Int { dense.count * MemoryLayout<Int32>.stride }

    init() {
        buckets = Array(repeating: nil, count: 8)
        shift = 61
    }

    init(_ pairs: [CustomerID: RequestID]) {
        self.init()
        for (customer, request) in pairs { self[customer] = request }
    }

    /// From now on customers `0..<customers` are filed in a plain array (see the type's comment). Only an
    /// empty table changes; the range only grows.
    mutating func reserveDense(customers: Int) {
        guard count == 0, customers > dense.count else { return }
        dense = Array(repeating: Self.vacant, count: customers)
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
        var left = filedDense, customer = denseEnd
        while left > 0 {
            customer -= 1
            let request = dense[customer]
            if request != Self.vacant {
                body(CustomerID(customer), RequestID(Int(request)))
                left -= 1
            }
        }
        for case let entry? in buckets { body(entry.customer, entry.request) }
    }

    /// Whether `customer` is filed in `dense` (when its request fits a slot).
    @inline(__always) private func inDenseRange(_ customer: CustomerID) -> Bool {
        UInt(bitPattern: customer.rawValue) < UInt(dense.count)
    }

    @inline(__always) private static func fitsSlot(_ request: RequestID) -> Bool {
        request.rawValue >= 0 && request.rawValue <= Int(Int32.max)
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
            if inDenseRange(customer) {
                let slot = dense[customer.rawValue]
                if slot != Self.vacant { return RequestID(Int(slot)) }
                if hashedInDenseRange == 0 { return nil }
            }
            let (i, found) = probe(customer)
            return found ? buckets[i]!.request : nil
        }
        @inline(__always) set {
            if inDenseRange(customer) {
                setInDenseRange(customer, newValue)
            } else if let request = newValue {
                insert(customer, request)
            } else {
                remove(customer)
            }
        }
    }

    /// The setter for a customer of the dense range: in a slot, or hashed if its request does not fit one;
    /// never both.
    private mutating func setInDenseRange(_ customer: CustomerID, _ newValue: RequestID?) {
        if hashedInDenseRange > 0, remove(customer) { hashedInDenseRange -= 1 }
        let c = customer.rawValue
        if dense[c] != Self.vacant {
            dense[c] = Self.vacant
            filedDense -= 1
        }
        guard let request = newValue else { return }
        if Self.fitsSlot(request) {
            dense[c] = Int32(truncatingIfNeeded: request.rawValue)
            filedDense += 1
            denseEnd = max(denseEnd, c + 1)
        } else {
            insert(customer, request)
            hashedInDenseRange += 1
        }
    }

    private mutating func insert(_ customer: CustomerID, _ request: RequestID) {
        let probed = probe(customer)
        var i = probed.index
        if probed.found {
            buckets[i]!.request = request
            return
        }
        if 2 * (hashed + 1) > buckets.count {
            grow()
            i = probe(customer).index
        }
        buckets[i] = Entry(customer: customer, request: request)
        hashed += 1
    }

    /// Strikes `customer` off if its open request is `request` (a request that ends frees its customer, whose
    /// open request may be another one by then): one probe, where a lookup and then a removal made two.
    mutating func strikeOff(_ customer: CustomerID, ifFiledAs request: RequestID) {
        let inRange = inDenseRange(customer)
        if inRange {
            let c = customer.rawValue
            if dense[c] != Self.vacant {
                if Int(dense[c]) == request.rawValue {
                    dense[c] = Self.vacant
                    filedDense -= 1
                }
                return
            }
            if hashedInDenseRange == 0 { return }
        }
        let probed = probe(customer)
        guard probed.found, buckets[probed.index]!.request == request else { return }
        removeBucket(at: probed.index)
        if inRange { hashedInDenseRange -= 1 }
    }

    /// Strikes `customer` off the buckets; false if it was not there.
    @discardableResult
    private mutating func remove(_ customer: CustomerID) -> Bool {
        let probed = probe(customer)
        guard probed.found else { return false }
        removeBucket(at: probed.index)
        return true
    }

    /// Empties bucket `index` (occupied) and shifts the entries after it back.
    private mutating func removeBucket(at index: Int) {
        var hole = index
        let mask = buckets.count &- 1
        buckets[hole] = nil
        hashed -= 1
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
        hashed = 0
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
