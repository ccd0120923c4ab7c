import CacheHint

// MARK: - Snapshots: the core's whole state as a value

extension DispatchCore {
    /// Everything a core holds besides its configuration (city, travel model, policy, rules): drivers,
    /// requests (live records, ended ones' 16-byte records and the id directory), zone queues, the available-taxi index, waiting lists, D12/D13
    /// tables, the batch epoch, counters and the clock. A host that stores one can rebuild the core
    /// without replaying the commands that led to it (the service's checkpoints).
    ///
    /// Invariant: `DispatchCore(restoring: core.snapshot, …)` with the same configuration is a core
    /// whose `snapshot` equals the original's and which answers every later command as the original
    /// would (same effects, same state), because every stored field of the core is here, copied as is.
    /// A value: the core's later commands do not change a snapshot taken before them.
    public struct Snapshot: Sendable, Equatable, Codable {
        var now: Double
        var statistics: DispatchStatistics
        var drivers: [DriverRecord]
        var driverSlot: [DriverID: Int32]
        var requests: [RequestRecord]
        var endedSlots: Int
        var ended: [EndedRequest]
        var archivedEnded: Int
        var directory: RequestDirectory
        var queues: ZoneQueues
        var index: AvailableTaxiIndex
        var openRequestOfCustomer: OpenRequestTable
        var customerBadEvaluations: [CustomerID: Int]
        var waiting: [Int32]
        var waitingHead: Int
        var waitingInZone: [[Int32]]
        var waitingInZoneHead: [Int]
        var batchEpochDue: Double?
        var batchEpochGeneration: UInt32

        /// The time of the last command the snapshot's core accepted.
        public var time: Double { now }
        /// Requests held (archived ones excluded), as `DispatchCore.requestCount` counts them.
        public var requestCount: Int { requests.count - endedSlots + ended.count - archivedEnded }

        /// Why this snapshot cannot be the state of a core of `city` (zone count, per-slot tables of
        /// another length), or nil when it fits. A restored core's deeper invariants are checked by
        /// `invariantViolations()`.
        func mismatch(with city: CityGeometry) -> String? {
            let zones = city.zoneCount
            if queues.zoneCount != zones || waitingInZone.count != zones || waitingInZoneHead.count != zones {
                return "it has \(queues.zoneCount) zones, the city \(zones)"
            }
            if !queues.fits(slots: drivers.count, zones: zones) || !index.fits(slots: drivers.count) {
                return "its queue or taxi-index tables do not match its \(drivers.count) drivers"
            }
            let slots = Int32(requests.count)
            if waiting.contains(where: { $0 < 0 || $0 >= slots }) || waitingInZone.joined().contains(where: { $0 < 0 || $0 >= slots }) {
                return "a request reference points outside its \(requests.count) request slots"
            }
            var outside = false
            directory.forEach { _, location in
                if location >= 0 ? location >= slots : RequestDirectory.endedIndex(location) >= ended.count { outside = true }
            }
            if outside { return "its request directory points outside its \(requests.count) live and \(ended.count) ended records" }
            if driverSlot.values.contains(where: { $0 < 0 || Int($0) >= drivers.count }) {
                return "a driver reference points outside its \(drivers.count) driver slots"
            }
            return nil
        }
    }

    /// The core's state now, as a value: the driver and open-request tables copied (O(drivers + open
    /// requests), less than encoding them), the rest copy-on-write (O(1) until the core changes next).
    public var snapshot: Snapshot {
        Snapshot(now: now, statistics: statistics, drivers: drivers.elements, driverSlot: driverSlot, requests: requests.elements,
                 endedSlots: endedSlots, ended: ended, archivedEnded: archivedEnded, directory: directory, queues: queues, index: index,
                 openRequestOfCustomer: openRequestOfCustomer, customerBadEvaluations: customerBadEvaluations,
                 waiting: waiting, waitingHead: waitingHead, waitingInZone: waitingInZone,
                 waitingInZoneHead: waitingInZoneHead, batchEpochDue: batchEpochDue,
                 batchEpochGeneration: batchEpochGeneration)
    }

    /// A core in the state `snapshot` describes, with the given configuration (the one the snapshot's
    /// core had: its city as last set, and the same travel model, policy and rules).
    /// - Throws: `DispatchError.invalidConfiguration` when the rules are invalid or the snapshot does not
    ///   fit the city (see `Snapshot.mismatch(with:)`); a snapshot that fits but breaks the core's
    ///   invariants is restored, and `invariantViolations()` names what is wrong.
    public convenience init(restoring snapshot: Snapshot, city: CityGeometry, travel: any TravelTimeEstimator,
                            policy: any DispatchPolicy, rules: DispatchRules = DispatchRules()) throws(DispatchError) {
        if let why = snapshot.mismatch(with: city) { throw .invalidConfiguration("snapshot does not fit: \(why)") }
        try self.init(city: city, travel: travel, policy: policy, rules: rules, spatialCellSide: snapshot.index.cellSide)
        now = snapshot.now
        statistics = snapshot.statistics
        drivers = RecordTable(snapshot.drivers)
        driverSlot = snapshot.driverSlot
        requests = RecordTable(snapshot.requests)
        endedSlots = snapshot.endedSlots
        ended = snapshot.ended
        archivedEnded = snapshot.archivedEnded
        directory = snapshot.directory
        queues = snapshot.queues
        index = snapshot.index
        openRequestOfCustomer = snapshot.openRequestOfCustomer
        customerBadEvaluations = snapshot.customerBadEvaluations
        waiting = snapshot.waiting
        waitingHead = snapshot.waitingHead
        waitingInZone = snapshot.waitingInZone
        waitingInZoneHead = snapshot.waitingInZoneHead
        batchEpochDue = snapshot.batchEpochDue
        batchEpochGeneration = snapshot.batchEpochGeneration
    }
}
