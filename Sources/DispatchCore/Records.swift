/// What the core knows of one driver. Stored by slot.
struct DriverRecord {
    let id: DriverID
    let taxiCode: String
    var status: DriverStatus = .offShift
    var position = Position(x: 0, y: 0)
    /// D13: bad evaluations received from customers.
    var badEvaluations = 0
    /// The zone whose queue the taxi left for its current offer (D2: its place there only).
    var offeredFromZone = -1
}

/// What the core knows of one request or reservation. Stored by slot.
struct RequestRecord {
    let id: RequestID
    let customer: CustomerID
    let origin: Position
    let destination: Position
    let originZone: ZoneID
    let requestedAt: Double
    /// D11: the meeting time of a reservation; nil for an immediate request.
    let meetingTime: Double?
    var status: RequestStatus
    /// The customer gives up waiting for an acceptance at this time (D7).
    var patienceDeadline: Double
    /// Drivers who declined, let the offer lapse or were too late (D4, D5, D9):
    /// they are not offered this request again.
    var excluded: [Int32] = []
    var offerGeneration: UInt32 = 0
    var assignmentGeneration: UInt32 = 0
    var everAccepted = false
    var waiting = false
    var pickedUpAt = 0.0
    var charged = 0.0
    /// The driver who carried the customer (set when the ride completes), or -1.
    var servedBy: Int32 = -1
    var reportedByCustomer = false
    var reportedByDriver = false

    var isReservation: Bool { meetingTime != nil }
}

/// Counters the core keeps about its own decisions.
public struct DispatchStatistics: Sendable, Equatable {
    public var offersSent = 0
    public var offersAccepted = 0
    public var offersDeclined = 0
    public var offersTimedOut = 0
    /// D9: assignments taken from a late taxi.
    public var madReassignments = 0
    /// Offers that skipped the zone's longest-waiting eligible taxi (D15); 0 for ZoneFIFO.
    public var fifoViolations = 0
    public init() {}
}
