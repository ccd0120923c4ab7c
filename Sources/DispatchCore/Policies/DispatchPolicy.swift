/// An available taxi as a policy sees it: an opaque handle valid for one decision.
public struct TaxiHandle: Hashable, Sendable {
    let slot: Int32
}

/// A request that needs a taxi, as a policy sees it.
public struct OpenRequest: Sendable {
    let slot: Int32
    public let id: RequestID
    public let origin: Position
    public let originZone: ZoneID
    public let requestedAt: Double
    /// The request's excluded taxi slots (D4, D5, D9), copied once per decision so that
    /// eligibility tests during a search read no request record.
    let excluded: [Int32]
}

/// A taxi chosen for a request, with its estimated time of arrival in seconds.
public struct TaxiChoice: Sendable {
    public let taxi: TaxiHandle
    public let eta: Double
    public init(taxi: TaxiHandle, eta: Double) {
        self.taxi = taxi
        self.eta = eta
    }
}

/// How requests are matched to available taxis. The core owns *when* to ask
/// (each request at once, or at the end of each batch window); the policy
/// owns *how* to match, through a read-only `DispatchView`.
///
/// Invariant expected of implementations: only taxis for which
/// `view.isEligible(_:for:)` holds are returned, each at most once per call.
public protocol DispatchPolicy: Sendable {
    /// The name scenarios use to choose the policy.
    var name: String { get }
    /// nil: decide each request as it arrives; otherwise the length of the
    /// collection window in seconds.
    var batchWindow: Double? { get }
    /// Choose a taxi for one request, or nil when none is eligible.
    func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice?
    /// Choose taxis for several requests at once (one result per request, in order).
    func assign(_ requests: [OpenRequest], in view: DispatchView) -> [TaxiChoice?]
}

extension DispatchPolicy {
    public var batchWindow: Double? { nil }

    /// Greedy: requests in order, each takes its own best remaining taxi.
    public func assign(_ requests: [OpenRequest], in view: DispatchView) -> [TaxiChoice?] {
        var taken = Set<TaxiHandle>()
        return requests.map { request in
            let choice = view.nearestAvailableTaxi(to: request.origin) { taxi in
                !taken.contains(taxi) && view.isEligible(taxi, for: request)
            }
            if let choice { taken.insert(choice.taxi) }
            return choice
        }
    }
}

/// Read-only access to the core's queues and spatial index during one decision.
public struct DispatchView {
    // unowned(unsafe): a view lives only for one call into the core, and reference counting
    // on every access was 10 % of a city-scale run.
    unowned(unsafe) let core: DispatchCore

    /// The time of the decision.
    public var now: Double { borrowingCore { $0.now } }

    /// `body` given the core as a borrowed reference. Read through the `unowned(unsafe)` reference, the
    /// core (for a method call) or the array read is retained and released around every use (the zone queue's
    /// `head` array and the core for the ETA: ~2 % of a city-scale run's loop); borrowed, they are read in place.
    @inline(__always) func borrowingCore<R>(_ body: (DispatchCore) -> R) -> R {
        Unmanaged.passUnretained(core)._withUnsafeGuaranteedRef(body)
    }

    /// The zone of a position known to be in the city.
    public func zone(of position: Position) -> ZoneID { ZoneID(borrowingCore { $0.city.unsafeZoneIndex(position) }) }

    /// The driver behind a handle.
    public func driver(_ taxi: TaxiHandle) -> DriverID { borrowingCore { $0.drivers[Int(taxi.slot)].id } }

    /// The taxi's last known position.
    public func position(of taxi: TaxiHandle) -> Position { borrowingCore { $0.drivers[Int(taxi.slot)].position } }

    /// Whether the taxi may be offered the request (it has not declined it,
    /// let its offer lapse or been too late for it).
    public func isEligible(_ taxi: TaxiHandle, for request: OpenRequest) -> Bool {
        request.excluded.isEmpty || !request.excluded.contains(taxi.slot)
    }

    /// The first taxi of the zone's queue (the longest waiting, D15) that `accept` takes.
    /// - Complexity: O(taxis skipped).
    public func firstInQueue(of zone: ZoneID, where accept: (TaxiHandle) -> Bool) -> TaxiHandle? {
        var cursor = borrowingCore { $0.queues.head(of: zone.index) }
        while cursor >= 0 {
            if accept(TaxiHandle(slot: cursor)) { return TaxiHandle(slot: cursor) }
            cursor = borrowingCore { [cursor] in $0.queues.successor(of: cursor) }
        }
        return nil
    }

    /// Number of available taxis in the zone's queue.
    public func queueLength(of zone: ZoneID) -> Int { Int(borrowingCore { $0.queues.count(of: zone.index) }) }

    /// Estimated driving time from the taxi to a position, now.
    public func eta(of taxi: TaxiHandle, to destination: Position) -> Double {
        borrowingCore { $0.eta(from: $0.drivers[Int(taxi.slot)].position, to: destination) }
    }

    /// Up to `count` available taxis accepted by `accept`, by increasing ETA to `position`
    /// (ties by driver slot), found by a ring search of the spatial index.
    public func nearestAvailableTaxis(to position: Position, count: Int,
                                      where accept: (TaxiHandle) -> Bool) -> [TaxiChoice] {
        var found = BestTaxis(limit: count)
        search(to: position, into: &found, where: accept)
        return found.list.map { TaxiChoice(taxi: TaxiHandle(slot: $0.slot), eta: $0.eta) }
    }

    /// The available taxi accepted by `accept` with the smallest ETA to `position` (ties by driver
    /// slot): `nearestAvailableTaxis(to:count: 1, where:).first` without allocating.
    public func nearestAvailableTaxi(to position: Position, where accept: (TaxiHandle) -> Bool) -> TaxiChoice? {
        var found = BestTaxi()
        search(to: position, into: &found, where: accept)
        return found.best.map { TaxiChoice(taxi: TaxiHandle(slot: $0.slot), eta: $0.eta) }
    }

    /// The ring search behind both: keeps in `results` the best taxis accepted by `accept`.
    @inline(__always)
    func search<Results: TaxiSearchResults>(to position: Position, into results: inout Results,
                                            where accept: (TaxiHandle) -> Bool) {
        borrowingCore { $0.searchIndex(to: position, into: &results) { accept(TaxiHandle(slot: $0)) } }
    }
}

/// Builds a policy from its configuration name; unknown names fail loudly.
public enum DispatchPolicies {
    /// Names accepted by `make`.
    public static let names = ["zone-fifo", "nearest-idle", "batch"]

    /// - Parameters:
    ///   - name: `zone-fifo`, `nearest-idle` or `batch`.
    ///   - batchWindow: seconds per collection window (batch only), > 0.
    ///   - candidatesPerRequest: nearest taxis considered per request (batch only), >= 1.
    /// - Throws: `DispatchError.invalidConfiguration` for an unknown name or bad parameter.
    public static func make(name: String, batchWindow: Double = 30, candidatesPerRequest: Int = 8) throws(DispatchError) -> any DispatchPolicy {
        switch name {
        case "zone-fifo": return ZoneFIFOPolicy()
        case "nearest-idle": return NearestIdlePolicy()
        case "batch": return try BatchAssignmentPolicy(window: batchWindow, candidatesPerRequest: candidatesPerRequest)
        default:
            throw .invalidConfiguration("unknown dispatch policy '\(name)' (known: \(names.joined(separator: ", ")))")
        }
    }
}
