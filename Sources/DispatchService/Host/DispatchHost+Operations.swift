import DispatchCore

/// What an operator watches of the host at one instant: the figures `GET /metrics` exports as gauges.
///
/// Invariant: `ridesByState` names every request state once (0 for states no ride is in),
/// in the order of `OperationalState.stateNames`; `queueLengths` has one entry per zone of the current city.
public struct OperationalState: Sendable, Equatable {
    /// Each state's name and the rides held in it.
    public var ridesByState: [(String, Int)]
    /// Taxis in each zone's queue, by zone index.
    public var queueLengths: [Int]
    public var waitingCustomers: Int
    public var availableTaxis: Int
    public var pendingTimers: Int
    /// Rides archived out of memory (`archiveEnded`), all states together.
    public var archivedRides: Int
    /// Archived rides deleted by the retention (`archive_retain_days`) since the host started.
    public var archiveRidesDeleted = 0
    /// Open event streams of customers and of drivers.
    public var subscribers: [(String, Int)]
    /// Commands logged after the newest checkpoint (what a restart would replay), and that checkpoint.
    public var commandsSinceCheckpoint: Int64 = 0
    public var checkpoint = CheckpointStatus()

    /// The request states' names as the API writes them.
    public static let stateNames = ["scheduled", "pending", "offered", "accepted", "picked_up",
                                    "completed", "rejected", "cancelled", "expired"]

    public static func == (a: OperationalState, b: OperationalState) -> Bool {
        a.ridesByState.elementsEqual(b.ridesByState, by: ==) && a.queueLengths == b.queueLengths
            && a.waitingCustomers == b.waitingCustomers && a.availableTaxis == b.availableTaxis
            && a.pendingTimers == b.pendingTimers && a.archivedRides == b.archivedRides
            && a.archiveRidesDeleted == b.archiveRidesDeleted && a.subscribers.elementsEqual(b.subscribers, by: ==)
            && a.commandsSinceCheckpoint == b.commandsSinceCheckpoint && a.checkpoint == b.checkpoint
    }
}

extension DispatchHost {
    /// The host's figures now. - Complexity: O(requests held + zones).
    public func operationalState() -> OperationalState {
        var counts = [Int](repeating: 0, count: OperationalState.stateNames.count)
        for (_, status) in core.allRequests { counts[Self.stateIndex(status)] += 1 }
        var customers = 0, drivers = 0
        for (party, streams) in subscribers {
            switch party {
            case .customer: customers += streams.count
            case .driver: drivers += streams.count
            }
        }
        return OperationalState(
            ridesByState: Array(zip(OperationalState.stateNames, counts)),
            queueLengths: (0..<core.city.zoneCount).map { core.queue(of: ZoneID($0)).count },
            waitingCustomers: counts[Self.stateIndex(.pending)],
            availableTaxis: core.availableTaxiCount,
            pendingTimers: timers.count,
            archivedRides: archivedCounts.values.reduce(0, +), archiveRidesDeleted: archiveRidesDeleted,
            subscribers: [("customer", customers), ("driver", drivers)],
            commandsSinceCheckpoint: commandsSinceCheckpoint, checkpoint: lastCheckpoint)
    }

    private static func stateIndex(_ status: RequestStatus) -> Int {
        switch status {
        case .scheduled: 0
        case .pending: 1
        case .offered: 2
        case .accepted: 3
        case .pickedUp: 4
        case .completed: 5
        case .rejected: 6
        case .cancelled: 7
        case .expired: 8
        }
    }
}
