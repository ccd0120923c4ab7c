/// What the core knows of one driver. Stored by slot.
struct DriverRecord: Equatable, Codable {
    let id: DriverID
    let taxiCode: String
    var status: DriverStatus = .offShift
    var position = Position(x: 0, y: 0)
    /// D13: bad evaluations received from customers.
    var badEvaluations = 0
    /// The zone whose queue the taxi left for its current offer (D2: its place there only).
    var offeredFromZone = -1
}

/// What the core knows of one open request or reservation. Stored by slot while the request is open;
/// when it ends, what is left to know moves to an `EndedRequest` and the record is a tombstone (its
/// status terminal) until the next compaction drops it.
///
/// Invariant: the due times below are those of the timers the core asked for last; a timer that
/// fires before its due time, or belongs to an earlier offer or assignment, changes nothing.
@usableFromInline
struct RequestRecord: Equatable, Codable, Sendable {
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
    /// Which patience timer is armed: bumped when a D9 revocation arms patience again after an
    /// acceptance (perhaps for a later deadline).
    var patienceGeneration: UInt32 = 0
    /// D7: the patience deadline passed while an offer was out; if that offer fails the
    /// customer has gone: no further offer, the request ends `expired`.
    var patienceRanOut = false
    /// D7: the deadline the customer was last told in `waitingForTaxi` (-infinity: not told), so a
    /// customer hears it once per wait, not after every decline or batch window.
    var toldWaitingUntil = -Double.infinity
    /// D4: when the open offer lapses; answers after it are refused.
    var offerExpiresAt = 0.0
    /// D9: when the taxi of the current assignment must have reached the pickup.
    var pickupDeadline = 0.0
    /// Drivers who declined, let the offer lapse or were too late (D4, D5, D9):
    /// they are not offered this request again.
    var excluded: [Int32] = []
    var offerGeneration: UInt32 = 0
    var assignmentGeneration: UInt32 = 0
    var everAccepted = false
    var waiting = false
    var pickedUpAt = 0.0
    var charged = 0.0

    var isReservation: Bool { meetingTime != nil }
}

/// What the core keeps of a request that has ended: enough for its status, for commands that name it
/// to be refused exactly as before (a stale timer changes nothing) and for the D13 reports after a ride.
/// 16 bytes, so a long run keeps little per finished request (`DispatchCore.ended`).
///
/// Invariant: `outcome` is terminal, or `.archived` for a record the host archived (a tombstone until
/// the ended table's next compaction); `servedBy` is the carrying driver's slot for a completed ride, else -1.
struct EndedRequest: Equatable, Codable {
    enum Outcome: UInt8, Codable { case completed, rejected, cancelled, expired, archived }

    let customer: CustomerID
    let servedBy: Int32
    var outcome: Outcome
    var reportedByCustomer = false
    var reportedByDriver = false

    init(customer: CustomerID, servedBy: Int32, status: RequestStatus) {
        self.customer = customer
        self.servedBy = servedBy
        outcome = switch status {
        case .completed: .completed
        case .rejected: .rejected
        case .cancelled: .cancelled
        case .expired: .expired
        default: preconditionFailure("\(status) has not ended")
        }
    }

    /// The request's status (an archived record is never asked).
    var status: RequestStatus {
        switch outcome {
        case .completed: .completed
        case .rejected: .rejected
        case .cancelled: .cancelled
        case .expired, .archived: .expired
        }
    }
}

/// Counters the core keeps about its own decisions.
public struct DispatchStatistics: Sendable, Equatable, Codable {
    public var offersSent = 0
    public var offersAccepted = 0
    public var offersDeclined = 0
    public var offersTimedOut = 0
    /// D9: assignments taken from a late taxi.
    public var madReassignments = 0
    public init() {}
}
