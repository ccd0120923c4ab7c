/// Where a driver stands in the dispatch life cycle.
///
/// Legal moves: offShift → unavailable (shift start) ⇄ available (D2);
/// available → offered (D3) → toPickup (D8) → onRide → unavailable;
/// offered → available / unavailable (D4, D5); toPickup → unavailable (D9).
/// Only `available` taxis are in a zone queue.
public enum DriverStatus: Hashable, Sendable, CustomStringConvertible {
    case offShift
    /// On shift, not taking requests.
    case unavailable
    /// In the queue of the zone.
    case available(ZoneID)
    /// An offer for the request is waiting for the driver's answer.
    case offered(RequestID)
    /// Accepted; driving to the pickup point.
    case toPickup(RequestID)
    /// Carrying the customer.
    case onRide(RequestID)

    public var description: String {
        switch self {
        case .offShift: return "off shift"
        case .unavailable: return "not available"
        case .available(let z): return "available in \(z)"
        case .offered(let r): return "offered \(r)"
        case .toPickup(let r): return "going to pick up \(r)"
        case .onRide(let r): return "on ride \(r)"
        }
    }
}

/// Where a request stands. Exactly one state at a time; the last four are terminal.
public enum RequestStatus: Hashable, Sendable, CustomStringConvertible {
    /// A reservation waiting for its allocation time (D11).
    case scheduled
    /// Waiting for a taxi to become available (customer patience, D7).
    case pending
    case offered(DriverID)
    case accepted(DriverID)
    case pickedUp(DriverID)
    case completed
    /// No taxi was available (D7), or a reservation found none in time.
    case rejected
    case cancelled
    /// The customer's patience ran out before a driver accepted.
    case expired

    /// Whether the request has ended.
    public var isTerminal: Bool {
        switch self {
        case .completed, .rejected, .cancelled, .expired: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .scheduled: return "scheduled"
        case .pending: return "pending"
        case .offered(let d): return "offered to \(d)"
        case .accepted(let d): return "accepted by \(d)"
        case .pickedUp(let d): return "picked up by \(d)"
        case .completed: return "completed"
        case .rejected: return "rejected"
        case .cancelled: return "cancelled"
        case .expired: return "expired"
        }
    }
}
