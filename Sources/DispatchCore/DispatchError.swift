/// Why the core refused a command. A refused command changes nothing.
public enum DispatchError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidConfiguration(String)
    case unknownDriver(DriverID)
    case duplicateDriver(DriverID)
    case unknownRequest(RequestID)
    case duplicateRequest(RequestID)
    case positionOutsideCity(Position)
    case invalidTime(Double)
    /// Commands must come in non-decreasing time order.
    case timeWentBackwards(now: Double, last: Double)
    /// The driver's state does not allow the command (e.g. accept without an offer).
    case illegalDriverTransition(DriverID, state: DriverStatus, command: String)
    /// The request's state does not allow the command (e.g. cancel after acceptance, D10).
    case illegalRequestTransition(RequestID, state: RequestStatus, command: String)
    /// The offer named does not belong to this driver.
    case notOfferedToDriver(RequestID, DriverID)
    /// D4: the driver answered after the offer lapsed at `expiredAt`; the offer passes on
    /// when its timer fires.
    case offerExpired(RequestID, DriverID, expiredAt: Double)
    /// D12: the customer already has an open immediate request.
    case customerHasOpenRequest(CustomerID, open: RequestID)
    /// D11: a reservation must be made at least the minimum lead ahead.
    case reservationTooSoon(meetingTime: Double, earliestAllowed: Double)
    /// D11: the cancellation window of a reservation has closed.
    case cancellationWindowClosed(RequestID, closedAt: Double)
    /// The caller is not a party to this request or ride.
    case notAParty(RequestID)
    /// D13: a ride can be reported once per side, after it ended.
    case reportNotAllowed(RequestID, reason: String)
    case invalidPatience(Double)
    /// D1: the map cannot change while a taxi is on shift or a request is open (the reason says which).
    case cityInUse(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let why): return "invalid configuration: \(why)"
        case .unknownDriver(let d): return "unknown \(d)"
        case .duplicateDriver(let d): return "\(d) already exists"
        case .unknownRequest(let r): return "unknown \(r)"
        case .duplicateRequest(let r): return "\(r) already exists"
        case .positionOutsideCity(let p): return "position \(p) is not finite or outside the city"
        case .invalidTime(let t): return "time \(t) is not finite and >= 0"
        case .timeWentBackwards(let now, let last): return "time \(now) s is before the last command's time \(last) s"
        case .illegalDriverTransition(let d, let s, let c): return "\(d) cannot \(c) while \(s)"
        case .illegalRequestTransition(let r, let s, let c): return "\(r) cannot \(c) while \(s)"
        case .notOfferedToDriver(let r, let d): return "\(r) is not offered to \(d)"
        case .offerExpired(let r, let d, let t): return "the offer of \(r) to \(d) lapsed at \(t) s (D4)"
        case .customerHasOpenRequest(let c, let r): return "\(c) already has open \(r) (D12)"
        case .reservationTooSoon(let m, let e): return "meeting time \(m) s is earlier than the earliest allowed \(e) s (D11)"
        case .cancellationWindowClosed(let r, let t): return "\(r) can no longer be cancelled: the window closed at \(t) s (D11)"
        case .notAParty(let r): return "the caller is not a party to \(r)"
        case .reportNotAllowed(let r, let why): return "report on \(r) refused: \(why)"
        case .invalidPatience(let p): return "patience \(p) s must be >= 0 (or infinity)"
        case .cityInUse(let why): return "the map cannot change now: \(why)"
        }
    }
}
