/// Everything a host can ask of the core. Each command is handled at a time
/// the host supplies; the core answers with `Effect`s or a `DispatchError`.
public enum Command: Sendable, Equatable {
    /// Register a driver and their taxi code. The driver starts off shift.
    case addDriver(DriverID, taxiCode: String)
    /// The driver comes on shift at a position, not yet available.
    case startShift(DriverID, at: Position)
    /// The driver goes off shift; only when not engaged in an offer or ride.
    case endShift(DriverID)
    /// D2: toggle availability. Available joins the tail of the zone queue.
    case setAvailable(DriverID, Bool)
    /// D2: a GPS fix. An available taxi that changes zone moves to the new zone's tail.
    case updatePosition(DriverID, Position)
    /// D3–D7, D12: an immediate request. `patience` is how long the customer
    /// waits for a taxi when none is available: 0 = answered "no taxi" at once.
    case requestRide(RequestID, customer: CustomerID, origin: Position, destination: Position, patience: Double)
    /// D11: a reservation for a meeting time at least the minimum lead ahead.
    case reserveRide(RequestID, customer: CustomerID, origin: Position, destination: Position, meetingTime: Double)
    /// D10, D11: cancel a request or reservation before a driver accepted it.
    case cancel(RequestID, by: CustomerID)
    /// D3, D8: the driver accepts the offer.
    case accept(DriverID, RequestID)
    /// D5: the driver declines the offer.
    case decline(DriverID, RequestID)
    /// The driver reports the customer on board.
    case pickedUp(DriverID, RequestID)
    /// The ride ended at `at`.
    case droppedOff(DriverID, RequestID, at: Position)
    /// A timer the core asked for (`Effect.wake`) is due.
    case timerFired(TimerID)
    /// D13: a bad evaluation of the other side of a finished ride.
    case report(Reporter, RequestID)
    /// D14: queue length of the zone of a position.
    case queueStatus(Position)
    /// D14: ETA of the nearest available taxi to a position.
    case estimateArrival(Position)
    /// D1: a new map area and zone size. Refused (`cityInUse`) while a taxi is on shift or a
    /// request or reservation is open, since queues are per zone; drivers and ended rides stay.
    case setCity(CityGeometry)
}

/// A wake-up the core asked the host for. Stale timers are harmless: the core
/// ignores a timer whose request has moved on, and answers one that fires before
/// its due time (kept on the request's record) only by asking again for that time.
public struct TimerID: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: UInt8, Hashable, Sendable, Codable {
        /// D4: the offer's minute is up.
        case offerTimeout
        /// D9: the taxi should have reached the pickup by now.
        case maximumAllowedDelay
        /// D7: the waiting customer's patience is over.
        case patience
        /// D11: time to allocate a taxi to the reservation.
        case reservationAllocation
        /// Batch policies: the end of a collection window.
        case batchEpoch
    }
    public let kind: Kind
    /// The request concerned (unused for `batchEpoch`).
    public let request: RequestID
    /// Which offer or assignment of the request the timer belongs to.
    public let generation: UInt32

    public init(kind: Kind, request: RequestID, generation: UInt32) {
        self.kind = kind
        self.request = request
        self.generation = generation
    }

    public var description: String { "\(kind) timer of \(request) #\(generation)" }
}
