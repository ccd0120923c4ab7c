import DispatchCore

/// A request or reservation as its customer sees it.
public struct RideSnapshot: Sendable, Equatable {
    public var id: RequestID
    public var customer: CustomerID
    public var status: RequestStatus
    public var origin: Position
    public var destination: Position
    public var requestedAt: Double
    public var meetingTime: Double?
    public var taxiCode: String?
    public var etaSeconds: Double?
    public var fareCharged: Double
}

/// A driver's state as the driver sees it.
public struct DriverSnapshot: Sendable, Equatable {
    public var id: DriverID
    public var taxiCode: String
    public var status: DriverStatus
    public var position: Position
    /// The open offer and when it lapses (D4).
    public var offer: (request: RequestID, expiresAt: Double)?
    /// The pickup point and destination of the offered, accepted or carried ride.
    public var pickup: Position? = nil
    public var destination: Position? = nil

    public static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.taxiCode == b.taxiCode && a.status == b.status && a.position == b.position
            && a.offer?.request == b.offer?.request && a.offer?.expiresAt == b.offer?.expiresAt
            && a.pickup == b.pickup && a.destination == b.destination
    }
}

/// Everything observable about the core, for comparing a host before and after a restart.
public struct HostState: Sendable, Equatable {
    public var drivers: [DriverID: DriverStatus]
    public var requests: [RequestID: RequestStatus]
    /// Each zone's queue, longest waiting first.
    public var queues: [[DriverID]]
    public var timers: [String]
}

// MARK: - Queries and the operations the API needs

extension DispatchHost {
    public func ride(_ id: RequestID) -> RideSnapshot? {
        guard let ride = ledger.rides[id], let status = core.status(of: id) else { return nil }
        return RideSnapshot(id: id, customer: ride.customer, status: status, origin: ride.origin,
                            destination: ride.destination, requestedAt: ride.requestedAt, meetingTime: ride.meetingTime,
                            taxiCode: ride.taxiCode, etaSeconds: ride.etaSeconds, fareCharged: ride.fareCharged)
    }

    /// The customer's requests and reservations, oldest first.
    public func rides(of customer: CustomerID) -> [RideSnapshot] {
        (ledger.ridesOfCustomer[customer] ?? []).compactMap(ride)
    }

    public func driver(_ id: DriverID) -> DriverSnapshot? {
        guard let status = core.status(of: id), let position = core.position(of: id),
              let code = core.taxiCode(of: id) else { return nil }
        let offer = ledger.offers[id].map { (request: $0.request, expiresAt: $0.expiresAt) }
        var snapshot = DriverSnapshot(id: id, taxiCode: code, status: status, position: position, offer: offer)
        switch status {
        case .offered(let r), .toPickup(let r), .onRide(let r):
            snapshot.pickup = ledger.rides[r]?.origin
            snapshot.destination = ledger.rides[r]?.destination
        default: break
        }
        return snapshot
    }

    /// Whether the driver is offered, assigned to, carrying or has carried the request.
    public func isParty(_ driver: DriverID, to request: RequestID) -> Bool {
        switch core.status(of: request) {
        case .offered(let d), .accepted(let d), .pickedUp(let d): if d == driver { return true }
        default: break
        }
        return ledger.rides[request]?.servedBy == driver
    }

    /// D3–D7, D12: a new immediate request of the customer.
    public func requestRide(customer: CustomerID, from origin: Position, to destination: Position,
                            patience: Double) async throws -> RideSnapshot {
        let id = newRequestID()
        try await execute(.requestRide(id, customer: customer, origin: origin, destination: destination, patience: patience))
        return try await acceptedRide(id)
    }

    /// A ride whose command is durable, from memory, or from the archive when an archiving round took it
    /// while the caller waited to be resumed (possible with `archive_after_s: 0`).
    private func acceptedRide(_ id: RequestID) async throws -> RideSnapshot {
        guard let ride = try await storedRide(id) else {
            throw HostError.storageUnavailable("ride \(id) is neither held nor archived")  // cannot happen
        }
        return ride
    }

    /// D11: a reservation for `meetingTime` (seconds since 1970).
    public func reserveRide(customer: CustomerID, from origin: Position, to destination: Position,
                            meetingTime: Double) async throws -> RideSnapshot {
        let id = newRequestID()
        try await execute(.reserveRide(id, customer: customer, origin: origin, destination: destination,
                                       meetingTime: meetingTime))
        return try await acceptedRide(id)
    }

    /// Takes a driver out of service: ends the shift if on one.
    /// - Throws: `DispatchError.illegalDriverTransition` while the driver has an offer or a ride.
    public func retireDriver(_ id: DriverID) async throws {
        switch core.status(of: id) {
        case nil, .offShift?: return
        case .available?, .unavailable?: try await execute(.endShift(id))
        case let status?: throw DispatchError.illegalDriverTransition(id, state: status, command: "be removed")
        }
    }

    public func knowsDriver(_ id: DriverID) -> Bool { core.status(of: id) != nil }

    /// The map area and zones in force (D1), as the last `.setCity` or the scenario made them.
    public var city: CityGeometry { core.city }

    /// Everything observable, for restart tests.
    public func state() -> HostState {
        let drivers = Dictionary(uniqueKeysWithValues: ledger.drivers.compactMap { d in core.status(of: d).map { (d, $0) } })
        let requests = Dictionary(uniqueKeysWithValues: core.allRequests.map { ($0.0, $0.1) })
        let queues = (0..<core.city.zoneCount).map { core.queue(of: ZoneID($0)) }
        let timers = pendingTimers.map { "\($0.due) \($0.timer)" }.sorted()
        return HostState(drivers: drivers, requests: requests, queues: queues, timers: timers)
    }

    /// The core's invariant violations (empty when sound).
    public func invariantViolations() -> [String] { core.invariantViolations() }
}
