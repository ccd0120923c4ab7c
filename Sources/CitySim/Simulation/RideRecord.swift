import DispatchCore

/// What the simulator keeps of each request for the whole run: one row of `rides.csv`, 120 bytes.
/// Optional times are stored as NaN and counts as `Int32`, so a finished request costs no more than
/// its row; what only an open request needs (its ride draws, its excluded taxis) is in `RideTable`'s
/// open part and is released when the request ends.
///
/// Invariant: `meetingTime` is set exactly for reservations; `openSlot >= 0` exactly while the
/// request is open in the simulator's view (not yet served, rejected, cancelled or expired);
/// `excludesTaxis` exactly when the open entry lists a taxi.
struct RideRecord: Sendable {
    enum Outcome: String, Sendable {
        case pending, served, rejected, cancelled, expired

        /// `rawValue`, as static bytes for `rides.csv`.
        var csvText: StaticString {
            switch self {
            case .pending: "pending"
            case .served: "served"
            case .rejected: "rejected"
            case .cancelled: "cancelled"
            case .expired: "expired"
            }
        }
    }

    let requestedAt: Double
    private let meetingTimeOrNaN: Double
    let origin: Position
    let destination: Position
    private var acceptedAtOrNaN = Double.nan, pickupAtOrNaN = Double.nan, dropoffAtOrNaN = Double.nan
    var fare = 0.0
    private let customerRaw: Int
    private let originZoneRaw: Int32
    private var driverRaw: Int32 = -1
    private var offersRaw: Int32 = 0, declinesRaw: Int32 = 0, timeoutsRaw: Int32 = 0
    /// The request's entry in `RideTable`'s open part, or -1 once it has ended.
    var openSlot: Int32 = -1
    var outcome = Outcome.pending
    /// The open entry's excluded taxis are not empty (false once the request has ended).
    var excludesTaxis = false

    init(customer: CustomerID, requestedAt: Double, meetingTime: Double?, origin: Position, destination: Position,
         originZone: Int) {
        customerRaw = customer.rawValue
        self.requestedAt = requestedAt
        meetingTimeOrNaN = meetingTime ?? .nan
        self.origin = origin
        self.destination = destination
        originZoneRaw = Int32(originZone)
    }

    var customer: CustomerID { CustomerID(customerRaw) }
    var isReservation: Bool { !meetingTimeOrNaN.isNaN }
    /// `rides.csv`'s kind of request: "reservation" or "immediate".
    var kind: StaticString { isReservation ? "reservation" : "immediate" }
    /// Request → pickup, for an immediate request picked up; nil for a reservation or one not picked up.
    var wait: Double? { isReservation ? nil : pickupAt.map { $0 - requestedAt } }
    /// D11: the meeting time of a reservation; nil for an immediate request.
    var meetingTime: Double? { meetingTimeOrNaN.isNaN ? nil : meetingTimeOrNaN }
    var originZone: Int { Int(originZoneRaw) }
    var acceptedAt: Double? {
        get { acceptedAtOrNaN.isNaN ? nil : acceptedAtOrNaN }
        set { acceptedAtOrNaN = newValue ?? .nan }
    }
    var pickupAt: Double? {
        get { pickupAtOrNaN.isNaN ? nil : pickupAtOrNaN }
        set { pickupAtOrNaN = newValue ?? .nan }
    }
    var dropoffAt: Double? {
        get { dropoffAtOrNaN.isNaN ? nil : dropoffAtOrNaN }
        set { dropoffAtOrNaN = newValue ?? .nan }
    }
    /// The driver of the last acceptance.
    var driver: DriverID? {
        get { driverRaw < 0 ? nil : DriverID(Int(driverRaw)) }
        set { driverRaw = newValue.map { Int32($0.rawValue) } ?? -1 }
    }
    var offers: Int {
        get { Int(offersRaw) }
        set { offersRaw = Int32(newValue) }
    }
    var declines: Int {
        get { Int(declinesRaw) }
        set { declinesRaw = Int32(newValue) }
    }
    var timeouts: Int {
        get { Int(timeoutsRaw) }
        set { timeoutsRaw = Int32(newValue) }
    }
}
