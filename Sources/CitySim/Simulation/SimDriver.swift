import DispatchCore

/// What the simulator knows of a driver beyond the core's view: the shift,
/// the driver's own clockwork and the figures measured about them.
struct SimDriver {
    let id: DriverID
    /// Index of the driver's shift in `fleet.shifts`.
    let shift: Int
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
    /// When the current drive to a pickup ends (on the grid, when a taxi that lost the ride to D9 turns available).
    var expectedArrival = 0.0
    /// Where the driver will be when the pending move ends: a drift's target, where a D9-revoked taxi turns available.
    var pendingPosition: Position?
    /// The driver's place in the zone queues as the simulator records them (D2, D15).
    var queuePlace = QueuePlace()
    /// The queue place the driver had when the current offer reached them, given back if it is withdrawn.
    var offeredFrom = QueuePlace()
    /// A core timer waiting behind this driver's answer (an offer's timeout) or pickup (D9) instead of
    /// in the event queue.
    var parked: ParkedTimer?
    /// A customer's patience timer waiting behind this driver's answer to the customer's offer.
    var parkedPatience: ParkedTimer?
    /// Shifts begun (a shift carried on over midnight is one).
    var shiftsStarted = 0

    // Measured figures, all over the measurement window [warm-up, horizon): time is clipped to it,
    // rides and earnings count when they happen in it.
    var shiftSeconds = 0.0
    var busySeconds = 0.0
    /// Time spent available in a zone queue.
    var queueSeconds = 0.0
    /// Waits in a queue begun in the window and ended by an offer: their total length and number.
    var queueWaitSeconds = 0.0
    var queueWaits = 0
    /// Waits in a queue begun in the window and ended otherwise (shift end, horizon): censored.
    var censoredQueueWaits = 0
    var rides = 0
    var earnings = 0.0

    init(id: DriverID, shift: Int, shifts: [(start: Double, end: Double)]) {
        self.id = id
        self.shift = shift
        self.shifts = shifts
    }
}
