import CacheHint

/// The taxi dispatch core: zones and their queues, drivers, requests, offers
/// and reservations, driven by `Command`s and answering with `Effect`s.
///
/// The core never reads a clock, sleeps, draws random numbers or does I/O: the
/// host passes the time with every command and turns `Effect.wake` into a
/// timer (the simulator's event heap, or the service's real timers). The
/// simulator and the HTTP service run this same type.
///
/// Invariants (checked by `invariantViolations()`): a taxi is in at most one
/// zone queue, exactly when it is available; queue order is enqueue order
/// (D15) — D4/D5 moves re-enqueue at the tail; a driver engaged in an offer or
/// ride and its request point at each other, so a taxi serves at most one
/// ride; every request is in exactly one state; a refused command changes nothing.
/// Memory: only open requests keep a full record (`requests`, compacted between commands); an ended
/// one keeps 16 bytes (`EndedRequest`) and its directory entry until the host archives it.
///
/// ```swift
/// let city = try CityGeometry(width: 10_000, height: 10_000, zoneArea: 2_000_000)
/// let core = try DispatchCore(city: city, travel: GridTravelModel(speed: 8.3), policy: ZoneFIFOPolicy())
/// _ = try core.handle(.addDriver(DriverID(1), taxiCode: "TX-1"), at: 0)
/// _ = try core.handle(.startShift(DriverID(1), at: Position(x: 500, y: 500)), at: 0)
/// _ = try core.handle(.setAvailable(DriverID(1), true), at: 0)
/// let effects = try core.handle(.requestRide(RequestID(1), customer: CustomerID(7),
///     origin: Position(x: 900, y: 400), destination: Position(x: 5000, y: 5000), patience: 0), at: 10)
/// // effects: [.offer(driver 1, request 1, expiresAt: 70), .wake(at: 70, offer timeout)]
/// ```
public final class DispatchCore {
    /// The map area and zones (D1); changed only by `.setCity` while nothing depends on the zones.
    public internal(set) var city: CityGeometry
    public let travel: any TravelTimeEstimator
    /// `travel` when it is the grid's model: searches and ETAs then call it directly, specialised and inlined,
    /// instead of through the existential's witness table for every candidate taxi.
    let gridTravel: GridTravelModel?
    /// `travel` for the closest-taxi search when it is another model.
    let anyTravel: AnyTravelTimeEstimator
    public let rules: DispatchRules
    public let policy: any DispatchPolicy
    /// The time of the last accepted command, seconds.
    public internal(set) var now: Double = 0
    public internal(set) var statistics = DispatchStatistics()

    var drivers = RecordTable<DriverRecord>()
    /// Slots of drivers whose ID is not their slot (see `knownSlot(of:)`).
    var driverSlot: [DriverID: Int32] = [:]
    /// The open requests by slot, and tombstones of those that ended since the last compaction
    /// (`compactRequests`): O(open requests), however many have passed through.
    @usableFromInline var requests = RecordTable<RequestRecord>()
    /// Ended records still in `requests` (their status terminal), dropped by the next compaction.
    @usableFromInline var endedSlots = 0
    /// What is kept of every ended request not archived (16 bytes each), and archived tombstones among them.
    var ended: [EndedRequest] = []
    var archivedEnded = 0
    /// Where each request is: its slot in `requests` while open, its index in `ended` after.
    var directory = RequestDirectory()
    var queues: ZoneQueues
    var index: AvailableTaxiIndex
    /// D12: each customer's open immediate request.
    var openRequestOfCustomer = OpenRequestTable()
    /// D13: bad evaluations received by customers from drivers.
    var customerBadEvaluations: [CustomerID: Int] = [:]
    /// Requests waiting for a taxi, oldest first (lazy: entries no longer waiting are skipped).
    var waiting: [Int32] = []
    var waitingHead = 0
    /// The same waiting requests by origin zone, oldest first (lazy in the same way), so a
    /// taxi that turns available finds its own zone's longest-waiting customer in O(1).
    var waitingInZone: [[Int32]]
    var waitingInZoneHead: [Int]
    /// Batch policies: the time of the scheduled end of the current window.
    var batchEpochDue: Double?
    var batchEpochGeneration: UInt32 = 0

    /// - Parameters:
    ///   - spatialCellSide: cell size of the closest-taxi index in metres
    ///     (default: the zone side, at most 1 km).
    /// - Throws: `DispatchError.invalidConfiguration` when the rules are invalid.
    public init(city: CityGeometry, travel: any TravelTimeEstimator, policy: any DispatchPolicy,
                rules: DispatchRules = DispatchRules(), spatialCellSide: Double? = nil) throws(DispatchError) {
        try rules.validate()
        let cell = spatialCellSide ?? city.defaultIndexCellSide
        guard cell.isFinite, cell > 0 else { throw .invalidConfiguration("spatial cell side must be > 0 (got \(cell))") }
        self.city = city
        self.travel = travel
        gridTravel = travel as? GridTravelModel
        anyTravel = AnyTravelTimeEstimator(base: travel)
        self.policy = policy
        self.rules = rules
        queues = ZoneQueues(zoneCount: city.zoneCount)
        waitingInZone = Array(repeating: [], count: city.zoneCount)
        waitingInZoneHead = Array(repeating: 0, count: city.zoneCount)
        index = AvailableTaxiIndex(width: city.width, height: city.height, cellSide: cell)
    }

    /// Makes room for `drivers` drivers and `requests` requests, so a host that knows its expected
    /// counts (the simulator, from the scenario) does not copy the records while they grow. Open
    /// records are compacted as requests end, so their table needs room for only a share of them: one
    /// request in service per taxi, and the tombstones a compaction lets pile up beside those
    /// (`tombstonesPerKept` each, or `compactionFloor`). Room is address space until a record is written
    /// there. A table grown by doubling instead copied its records each time and wrote every copy to fresh
    /// pages: ~1,000 page faults of the grid city's loop, whose 2,000 taxis keep ~10,000 records.
    /// A host whose customer ids run densely from 0 gives their number as `customers`: D12's table then
    /// files them in a plain array (`OpenRequestTable.reserveDense`). Only a core with no open request
    /// changes its table.
    public func reserveCapacity(drivers: Int, requests: Int, customers: Int? = nil) {
        self.drivers.reserveCapacity(drivers)
        let inService = drivers + max(Self.compactionFloor, Self.tombstonesPerKept * drivers) + 1
        self.requests.reserveCapacity(min(requests, max(Self.compactionFloor * 2, inService)))
        ended.reserveCapacity(requests)
        directory.reserveCapacity(requests)
        if let customers { openRequestOfCustomer.reserveDense(customers: customers) }
    }

    // MARK: - Commands

    /// Handles one command at `time` and returns its effects.
    /// - Throws: `DispatchError`; the core is then exactly as before the call.
    public func handle(_ command: Command, at time: Double) throws(DispatchError) -> [Effect] {
        var effects: [Effect] = []
        try handle(command, at: time, into: &effects)
        return effects
    }

    /// Handles one command at `time`, appending its effects to `effects`
    /// (hosts that handle many commands reuse one buffer).
    /// - Throws: `DispatchError`; the core and `effects` are then exactly as before the call.
    ///
    /// Inlinable, with the dispatch over the command: a host that names the command where it calls (the
    /// simulator's `attempt(.requestRide(…))`) gets the command's own method called directly, without the
    /// enum built, passed down and switched over in two more calls. That saved ~57 instructions per command,
    /// 3.4 % of the grid city's loop (callgrind). Every command, the service's too, still runs this code.
    @inlinable
    public func handle(_ command: Command, at time: Double, into effects: inout [Effect]) throws(DispatchError) {
        let previous = try advance(to: time)
        do {
            try apply(command, into: &effects)
        } catch {
            rollBack(to: previous)
            throw error
        }
        compactIfDue()
    }

    /// A command at `time` may run: the core's time moves there. Returns the time before.
    @usableFromInline
    func advance(to time: Double) throws(DispatchError) -> Double {
        // Finite and not negative: read as an unsigned integer, such a time's bits lie below those of +∞ (a negative
        // number has its sign bit set, a NaN lies above +∞), and −0 is the one negative pattern `time >= 0` takes.
        // ~10 instructions, where `isFinite` with `>= 0` compiled to a ~20-instruction class test on every command
        // (`time >= 0, time < .infinity` too: LLVM turns both into the same test).
        guard time.bitPattern < Double.infinity.bitPattern || time == 0 else { throw .invalidTime(time) }
        guard time >= now else { throw .timeWentBackwards(now: time, last: now) }
        let previous = now
        now = time
        return previous
    }

    /// A command was refused: the core's time goes back to `previous` (the rest it left as it was).
    @usableFromInline
    func rollBack(to previous: Double) { now = previous }

    /// Compacts the open-request table once ended tombstones outnumber the records kept enough.
    /// Inlinable, as `handle` is: a host's every command runs this test, which cost a call of ~16 instructions.
    @inlinable
    func compactIfDue() {
        if endedSlots >= Self.compactionFloor, endedSlots > Self.tombstonesPerKept * (requests.count - endedSlots) {
            compactRequests()
        }
    }

    @inlinable @inline(__always)
    func apply(_ command: Command, into effects: inout [Effect]) throws(DispatchError) {
        switch command {
        case .addDriver(let id, let code): try addDriver(id, taxiCode: code)
        case .startShift(let id, let position): try startShift(id, at: position)
        case .endShift(let id): try endShift(id)
        case .setAvailable(let id, let available): try setAvailable(id, available, effects: &effects)
        case .updatePosition(let id, let position): try updatePosition(id, position)
        case .requestRide(let id, let customer, let origin, let destination, let patience):
            try requestRide(id, customer: customer, origin: origin, destination: destination,
                            patience: patience, effects: &effects)
        case .reserveRide(let id, let customer, let origin, let destination, let meeting):
            try reserveRide(id, customer: customer, origin: origin, destination: destination,
                            meetingTime: meeting, effects: &effects)
        case .cancel(let id, let customer): try cancel(id, by: customer, effects: &effects)
        case .accept(let driver, let request): try accept(driver, request, effects: &effects)
        case .decline(let driver, let request): try decline(driver, request, effects: &effects)
        case .pickedUp(let driver, let request): try pickedUp(driver, request, effects: &effects)
        case .droppedOff(let driver, let request, let position):
            try droppedOff(driver, request, at: position, effects: &effects)
        case .timerFired(let timer): try timerFired(timer, effects: &effects)
        case .setCity(let city): try setCity(city)
        case .report(let reporter, let request): try report(reporter, request, effects: &effects)
        case .queueStatus(let position): try queueStatus(at: position, effects: &effects)
        case .estimateArrival(let position): try estimateArrival(at: position, effects: &effects)
        }
    }

    /// The length of the queue of the zone at `position`.
    @usableFromInline
    func queueStatus(at position: Position, effects: inout [Effect]) throws(DispatchError) {
        let zone = try city.zone(of: position)
        effects.append(.queueStatus(zone, length: Int(queues.count(of: zone.index))))
    }

    /// The closest available taxi to `position` and its ETA, if any.
    @usableFromInline
    func estimateArrival(at position: Position, effects: inout [Effect]) throws(DispatchError) {
        _ = try city.zone(of: position)
        let nearest = view.nearestAvailableTaxi(to: position) { _ in true }
        effects.append(.arrivalEstimate(nearest.map { view.driver($0.taxi) }, eta: nearest?.eta))
    }

    var view: DispatchView { DispatchView(core: self) }

    // Searches and ETAs for `DispatchView` run here, where the travel model is read in place: read
    // through the view's reference to the core, the model (an existential) is copied at every call.

    /// The travel time from `origin` to `destination`, departing now.
    @inline(__always) func eta(from origin: Position, to destination: Position) -> Double {
        if let gridTravel { return gridTravel.travelTime(from: origin, to: destination, departingAt: now) }
        return travel.travelTime(from: origin, to: destination, departingAt: now)
    }

    /// The ring search of the taxi index (`AvailableTaxiIndex.nearest`), on the index where it is stored.
    /// `index.nearest(…)` called directly, or on a borrowed copy, copies the index first — a retain and a
    /// release per array, 5 % of a grid-city run — because the closures and the travel model it calls
    /// might change the core's storage meanwhile. Lent `inout`, the index is the search's alone for the
    /// call, so nothing is copied (debug builds trap if `eligible` reaches the index through the core).
    @inline(__always) func searchIndex<Results: TaxiSearchResults>(to position: Position, into results: inout Results,
                                                                   eligible: (Int32) -> Bool) {
        if let gridTravel {
            withIndexInPlace { $0.nearest(to: position, at: now, travel: gridTravel, into: &results, eligible: eligible) }
        } else {
            withIndexInPlace { $0.nearest(to: position, at: now, travel: anyTravel, into: &results, eligible: eligible) }
        }
    }

    @inline(__always) private func withIndexInPlace(_ body: (inout AvailableTaxiIndex) -> Void) { body(&index) }

    // MARK: - Lookups

    /// The driver's slot. Hosts that number drivers 0, 1, 2 … in the order they add them (the
    /// simulator) are found without hashing: a profile of a 30,000-taxi run spent 10 % in this lookup.
    @inline(__always) func knownSlot(of driver: DriverID) -> Int32? {
        let raw = driver.rawValue
        if raw >= 0, raw < drivers.count, drivers[raw].id == driver { return Int32(truncatingIfNeeded: raw) }
        return driverSlot[driver]
    }

    /// The request's location (`RequestDirectory.Location`: its slot while open, `<= -2` once ended),
    /// without hashing when request IDs are numbered in order; nil for an unknown request.
    @inline(__always) func knownSlot(of request: RequestID) -> Int32? { directory.location(of: request) }

    func slot(of driver: DriverID) throws(DispatchError) -> Int32 {
        guard let slot = knownSlot(of: driver) else { throw .unknownDriver(driver) }
        return slot
    }

    func slot(of request: RequestID) throws(DispatchError) -> Int32 {
        guard let slot = knownSlot(of: request) else { throw .unknownRequest(request) }
        return slot
    }

    // MARK: - Queries

    /// The driver's state, or nil for an unknown driver.
    public func status(of driver: DriverID) -> DriverStatus? { knownSlot(of: driver).map { drivers[Int($0)].status } }

    /// The request's state, or nil for an unknown request.
    public func status(of request: RequestID) -> RequestStatus? {
        guard let slot = knownSlot(of: request) else { return nil }
        return slot >= 0 ? requests[Int(slot)].status : ended[RequestDirectory.endedIndex(slot)].status
    }

    /// The driver's last known position.
    public func position(of driver: DriverID) -> Position? { knownSlot(of: driver).map { drivers[Int($0)].position } }

    /// The available taxis of a zone, longest waiting first (D15).
    public func queue(of zone: ZoneID) -> [DriverID] { queues.slots(in: zone.index).map { drivers[Int($0)].id } }

    /// Number of available taxis in the whole city.
    public var availableTaxiCount: Int { index.count }

    /// D13: bad evaluations a driver has received.
    public func badEvaluations(of driver: DriverID) -> Int? { knownSlot(of: driver).map { drivers[Int($0)].badEvaluations } }

    /// D13: bad evaluations a customer has received.
    public func badEvaluations(of customer: CustomerID) -> Int { customerBadEvaluations[customer] ?? 0 }

    /// The taxi code of a driver.
    public func taxiCode(of driver: DriverID) -> String? { knownSlot(of: driver).map { drivers[Int($0)].taxiCode } }

    /// Every request held (not archived) and its state; requests numbered in order come in id order,
    /// others in no particular order.
    public var allRequests: [(RequestID, RequestStatus)] {
        var all: [(RequestID, RequestStatus)] = []
        all.reserveCapacity(requestCount)
        directory.forEach { id, slot in
            all.append((id, slot >= 0 ? requests[Int(slot)].status : ended[RequestDirectory.endedIndex(slot)].status))
        }
        return all
    }

    /// Requests held in memory (archived ones excluded): open ones and what is kept of ended ones.
    public var requestCount: Int { requests.count - endedSlots + ended.count - archivedEnded }
}
