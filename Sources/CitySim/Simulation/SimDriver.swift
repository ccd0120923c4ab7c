import DispatchCore

/// What the simulator knows of a driver beyond the core's view: the shift,
/// the driver's own clockwork and the figures measured about them.
struct SimDriver {
    let id: DriverID
    /// Shift intervals [start, end) in simulated seconds.
    var shifts: [(start: Double, end: Double)]
    var onShift = false
    /// The shift is over: leave as soon as no offer or ride is in progress.
    var leaving = false
    /// Bumped whenever pending driver events become stale.
    var generation: UInt32 = 0
    var shiftStartedAt = 0.0
    var nextBreakAt = Double.infinity
    /// When the driver last joined a queue, while available.
    var availableSince: Double?
    var busySince: Double?
    /// Where the driver will be when the current drive ends (for a lost ride, D9).
    var expectedArrival = 0.0
    var pendingPosition: Position?

    // Measured figures.
    var shiftSeconds = 0.0
    var busySeconds = 0.0
    var queueWaitSeconds = 0.0
    var queueWaits = 0
    var rides = 0
    var earnings = 0.0

    init(id: DriverID, shifts: [(start: Double, end: Double)]) {
        self.id = id
        self.shifts = shifts
    }
}

/// What is recorded of each request (one row of `rides.csv`).
struct RideRecord {
    enum Outcome: String { case pending, served, rejected, cancelled, expired }
    let id: RequestID
    let customer: CustomerID
    let isReservation: Bool
    let requestedAt: Double
    let meetingTime: Double?
    let origin: Position
    let destination: Position
    let originZone: Int
    var outcome = Outcome.pending
    var acceptedAt: Double?
    var pickupAt: Double?
    var dropoffAt: Double?
    var driver: DriverID?
    var offers = 0
    var declines = 0
    var timeouts = 0
    var fare = 0.0
}
