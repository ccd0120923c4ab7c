import DispatchCore

/// What an operator's live map shows at one moment: every taxi on shift with its state and
/// position, every customer waiting (pending, offered or accepted, not yet picked up), the
/// length of each zone's queue and the last hour's headline figures.
///
/// Invariant: `version` is the command log's sequence number the view was taken at, so two
/// views with the same version show the same state (apart from `now` and the hour's window).
public struct LiveView: Sendable, Equatable {
    public struct Taxi: Sendable, Equatable {
        public var driver: DriverID
        public var taxiCode: String
        public var status: DriverStatus
        public var position: Position
    }

    public struct Waiting: Sendable, Equatable {
        public var ride: RequestID
        public var status: RequestStatus
        public var origin: Position
        public var requestedAt: Double
    }

    /// The last hour's figures: requests made, rides completed, and the 90th percentile of
    /// the wait (pickup − request, immediate rides picked up in the hour; nil when none were).
    public struct Hour: Sendable, Equatable {
        public var requests: Int
        public var served: Int
        public var pickups: Int
        public var p90WaitSeconds: Double?
    }

    public var version: Int64
    public var now: Double
    public var taxis: [Taxi]
    public var waiting: [Waiting]
    /// Indexed by zone id (row by row from the south-west corner).
    public var queueLengths: [Int]
    public var lastHour: Hour
}

extension DispatchHost {
    /// The operator's view now.
    /// - Complexity: O(drivers + requests + zones).
    public func liveView() -> LiveView {
        let now = max(clock.now(), core.now)
        let taxis: [LiveView.Taxi] = ledger.drivers.compactMap { driver in
            guard let status = core.status(of: driver), status != .offShift,
                  let position = core.position(of: driver), let code = core.taxiCode(of: driver) else { return nil }
            return LiveView.Taxi(driver: driver, taxiCode: code, status: status, position: position)
        }
        var waiting: [LiveView.Waiting] = []
        for (id, status) in core.allRequests {
            switch status {
            case .pending, .offered, .accepted:
                if let ride = ledger.rides[id] {
                    waiting.append(.init(ride: id, status: status, origin: ride.origin, requestedAt: ride.requestedAt))
                }
            default: continue
            }
        }
        waiting.sort { $0.ride.rawValue < $1.ride.rawValue }
        let queues = (0..<core.city.zoneCount).map { core.queue(of: ZoneID($0)).count }
        return LiveView(version: durableSequence, now: now, taxis: taxis, waiting: waiting, queueLengths: queues,
                        lastHour: lastHour(endingAt: now))
    }

    /// The headline figures of the hour before `end`.
    func lastHour(endingAt end: Double) -> LiveView.Hour {
        let start = end - 3600
        var requests = 0, served = 0
        var waits: [Double] = []
        for ride in ledger.rides.values {
            if ride.requestedAt > start && ride.requestedAt <= end { requests += 1 }
            if let done = ride.completedAt, done > start && done <= end { served += 1 }
            if ride.meetingTime == nil, let pickup = ride.pickedUpAt, pickup > start && pickup <= end {
                waits.append(pickup - ride.requestedAt)
            }
        }
        return LiveView.Hour(requests: requests, served: served, pickups: waits.count,
                             p90WaitSeconds: Self.percentile(90, of: waits))
    }

    /// The nearest-rank percentile (the smallest value with at least `p` % of values at or below it).
    static func percentile(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[max(0, min(sorted.count - 1, rank - 1))]
    }

    /// The driver's place in their zone's queue (1 = next to be offered) and the queue's length,
    /// or nil when the driver is not queued.
    public func queuePlace(of driver: DriverID) -> (zone: ZoneID, position: Int, length: Int)? {
        guard case .available(let zone)? = core.status(of: driver) else { return nil }
        let queue = core.queue(of: zone)
        guard let index = queue.firstIndex(of: driver) else { return nil }
        return (zone, index + 1, queue.count)
    }

    /// The taxi serving the customer's open ride, for the customer's map: its position while
    /// the ride is offered, accepted or under way.
    public func taxiPosition(for ride: RequestID) -> Position? {
        switch core.status(of: ride) {
        case .offered(let d)?, .accepted(let d)?, .pickedUp(let d)?: return core.position(of: d)
        default: return nil
        }
    }

    /// Moves the driver's taxi (a logged command) and tells the customer of its ride.
    public func moveTaxi(_ driver: DriverID, to position: Position) async throws {
        try await execute(.updatePosition(driver, position))
        publishTaxiPosition(of: driver)
    }

    /// The driver picked the customer up (a logged command); the customer's streams get `picked_up`.
    public func pickUp(_ driver: DriverID, _ ride: RequestID) async throws {
        try await execute(.pickedUp(driver, ride))
        if let customer = ledger.customer(of: ride) {
            deliver(ServiceEvent("picked_up", ride, taxiCode: core.taxiCode(of: driver)), to: .customer(customer))
        }
    }

    /// Tells the customer of the driver's current ride where the taxi is (`taxi_position`),
    /// after a position update. Nothing when the driver has no accepted ride.
    func publishTaxiPosition(of driver: DriverID) {
        let ride: RequestID
        switch core.status(of: driver) {
        case .toPickup(let r)?, .onRide(let r)?: ride = r
        default: return
        }
        guard let customer = ledger.customer(of: ride), let position = core.position(of: driver) else { return }
        var event = ServiceEvent("taxi_position", ride, taxiCode: core.taxiCode(of: driver))
        event.x = position.x
        event.y = position.y
        deliver(event, to: .customer(customer))
    }
}
