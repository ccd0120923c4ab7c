/// The run summary of the CLI contract (design.md): what one run of a
/// scenario measured. Times in seconds, rates per hour. Every figure except
/// `per_hour` (labelled by hour) covers one window, [warm-up, horizon): request
/// figures cover requests made in it, fleet and fairness figures the time in it
/// (`measurement` states each rule in words).
///
/// Invariant: `requests.generated == served + rejected + cancelled + expired + pendingAtEnd`
/// and `pendingAtEnd == underWayAtEnd + waitingAtEnd`.
public struct RunSummary: Codable, Sendable, Equatable {
    public var scenario: String
    public var scenarioHash: String
    public var commit: String?
    public var seed: UInt64
    public var replication: Int
    public var policy: String
    public var simulatedHours: Double
    public var warmupHours: Double
    public var requests: RequestCounts
    public var waitS: DistributionSummary
    /// Share of the window's immediate requests that were picked up: `wait_s` describes only these.
    public var waitServedShare = 0.0
    public var assignS: DistributionSummary
    /// Share of the window's immediate requests a driver accepted: `assign_s` describes only these.
    public var assignAcceptedShare = 0.0
    public var offers: OfferCounts
    public var reservations: ReservationCounts
    public var fleet: FleetFigures
    public var fairness: FairnessFigures
    public var throughputPerHour: Double
    public var engine: EngineFigures
    public var perHour: [HourFigures]
    public var perZone: [ZoneFigures]
    /// Planner users and their taxi rides; only in runs of a scenario with a `planner` section.
    public var planner: PlannerSummary?
    /// The window and the censoring rule of every figure, in words.
    public var measurement = Measurement()

    public struct RequestCounts: Codable, Sendable, Equatable {
        public var generated = 0, served = 0, rejected = 0, cancelled = 0, expired = 0, pendingAtEnd = 0
        /// Immediate requests only (reservations are counted in `reservations`).
        public var immediate = 0
        /// Of `pendingAtEnd`: picked up and still riding at the horizon (counted in the throughput).
        public var underWayAtEnd = 0
        /// Of `pendingAtEnd`: not picked up by the horizon (waiting, offered, on the way, or a later reservation).
        public var waitingAtEnd = 0
        /// Requests the core refused, not in `generated`: D12 (the customer already had an open
        /// immediate request) and D11 (reservation lead below `dispatch.reservation_min_lead_s`).
        public var refusedOpenRequest = 0, refusedTooSoon = 0
        /// OD-matrix draws on demand zones of their own (`demand.od_matrix.zones`) in the window that were not
        /// requested because their origin or destination lies outside every dispatch zone; not in `generated`.
        /// Absent (nil) for every other demand.
        public var droppedOutsideZones: Int? = nil
    }
    public struct OfferCounts: Codable, Sendable, Equatable {
        public var sent = 0, accepted = 0, declined = 0, timedOut = 0
    }
    public struct ReservationCounts: Codable, Sendable, Equatable {
        public var made = 0, servedOnTime = 0, servedLate = 0, failed = 0, cancelled = 0
    }
    public struct FleetFigures: Codable, Sendable, Equatable {
        public var taxis = 0
        /// Share of on-shift time driving to a pickup or carrying a customer.
        public var utilization = 0.0
        /// Mean time a taxi waits available in a queue before its next offer, over the waits begun in
        /// the window and ended by an offer.
        public var meanQueueWaitS = 0.0
        /// The waits `meanQueueWaitS` averages, and those begun in the window but ended otherwise
        /// (shift end, horizon): censored, left out of the mean.
        public var queueWaits = 0, queueWaitsCensored = 0
        /// D9 reassignments of the window's requests.
        public var madReassignments = 0
    }
    public struct FairnessFigures: Codable, Sendable, Equatable {
        /// Pooled over all drivers and shifts of the window: mixes dispatch fairness with the
        /// difference in demand between shifts and with shifts cut by the window (see `byShift`).
        public var jainRidesPerShiftHour = 1.0
        /// Pooled like `jainRidesPerShiftHour`.
        public var giniEarnings = 0.0
        /// Offers of the window's requests that skipped the longest-waiting eligible taxi of the origin
        /// zone's queue (D15), by the simulator's own record of the queues, out of `fifoOffersChecked`
        /// (offers made while that queue held an eligible taxi).
        public var fifoViolations = 0
        public var fifoOffersChecked = 0
        /// Per shift of the scenario, over driver-shifts wholly inside the window.
        public var byShift: [ShiftFairness] = []
        /// Per shift and zone queue, over driver-shifts wholly inside the window that waited at least
        /// 30 min in that queue; only groups of two or more such drivers (`ZoneQueueFairnessBuilder`).
        public var byShiftZone: [ShiftZoneFairness] = []
    }
    /// Fairness among the drivers of one shift (same hours, same demand), each complete shift in the
    /// window one value: rides accepted in it per shift hour, and their fares per shift hour.
    public struct ShiftFairness: Codable, Sendable, Equatable {
        public var shift = ""
        public var driverShifts = 0
        public var jainRidesPerShiftHour = 1.0
        public var giniEarnings = 0.0
        /// The shift's zone queues with a figure in `by_shift_zone`, and the means of their
        /// `jain_dispatches_per_queued_hour` and `jain_if_equal` weighted by their drivers (1 when there is none).
        public var zoneQueues = 0
        public var zoneQueueJain = 1.0, zoneQueueJainIfEqual = 1.0
    }
    /// Fairness within one zone queue among the drivers of one shift: each driver-shift wholly in the
    /// window that waited there at least 30 min is one value, its dispatches from that queue (offers that
    /// took it out of the queue) per hour queued there.
    ///
    /// Invariant: `drivers >= 2`; `meanWaitS` and `p90WaitS` describe the `dispatches` waits (join → offer).
    public struct ShiftZoneFairness: Codable, Sendable, Equatable {
        public var shift = ""
        public var zone = 0
        public var drivers = 0
        public var queuedHours = 0.0
        public var dispatches = 0
        /// Jain's index over the drivers of dispatches per queued hour (1 = every driver served at the same rate).
        public var jainDispatchesPerQueuedHour = 1.0
        /// The index expected if every driver had the group's pooled rate, with Poisson dispatches: what chance
        /// alone gives with this few dispatches. A turn-taking (FIFO) queue reads near or above it, a queue
        /// that favours some drivers below it.
        public var jainIfEqual = 1.0
        public var meanWaitS = 0.0, p90WaitS = 0.0
    }
    /// The measurement window and how each figure treats what it cuts.
    public struct Measurement: Codable, Sendable, Equatable {
        public var fromHours = 0.0, toHours = 0.0
        public var requests = "requests made in [from_hours, to_hours); their outcome whenever it came before the horizon"
        public var openAtEnd = "requests still open at the horizon are counted in pending_at_end (under_way_at_end: picked up, "
            + "still riding; waiting_at_end: not picked up); wait_s and assign_s describe only served or accepted requests "
            + "(wait_served_share and assign_accepted_share give their share); throughput_per_hour counts requests "
            + "picked up before the horizon, so rides under way at the end count"
        public var refused = "refused_open_request (D12) and refused_too_soon (D11) count requests of the window the core "
            + "refused; they are not in generated"
        public var fleet = "time (on shift, busy, queued) clipped to the window; mean_queue_wait_s over queue waits begun "
            + "in the window and ended by an offer, queue_waits_censored counts those ended by shift end or horizon; "
            + "mad_reassignments of the window's requests"
        public var fairness = "jain_rides_per_shift_hour and gini_earnings pool every driver: rides and fares earned in the "
            + "window per on-shift hour in the window, so they also measure the mismatch between shifts and demand; "
            + "by_shift over driver-shifts wholly in the window; by_shift_zone, per shift and zone queue, over driver-shifts "
            + "wholly in the window that waited >= 30 min in that queue (groups of >= 2 drivers): Jain's index of dispatches "
            + "(offers taking the taxi out of that queue) per hour queued there, time of stints cut by a shift end or a move "
            + "counted without a dispatch, and the wait from joining to the offer of those dispatches; by_shift.zone_queue_jain "
            + "is the driver-weighted mean over the shift's zone queues; fifo_violations over offers of the window's requests"
        public var perHour = "per_hour covers every hour including the warm-up, each request in the hour it was made"
    }
    public struct EngineFigures: Codable, Sendable, Equatable {
        public var events = 0
        public var wallS = 0.0
        public var eventsPerS = 0.0
    }
    public struct HourFigures: Codable, Sendable, Equatable {
        public var hour = 0
        public var demand = 0, served = 0, rejected = 0
        /// Requests of the hour whose patience ran out before a taxi was found (D7).
        public var expired = 0
        public var meanWaitS = 0.0
        /// 90th percentile of the waits of the hour's served immediate requests (0 when none).
        public var p90WaitS = 0.0
        /// Share of the hour's immediate requests that were picked up (the waits above describe only these).
        public var waitServedShare = 0.0
        /// 50th, 95th and 99th percentiles of the same waits (0 when none).
        public var p50WaitS = 0.0, p95WaitS = 0.0, p99WaitS = 0.0
        public var taxisOnShift = 0, taxisAvailable = 0
    }
    public struct ZoneFigures: Codable, Sendable, Equatable {
        public var zone = 0
        public var requests = 0
        public var meanWaitS = 0.0, p90WaitS = 0.0
        /// Share of the zone's immediate requests that were picked up (the waits above describe only these).
        public var waitServedShare = 0.0
        /// Available taxis in the zone's queue, sampled at the start of each hour.
        public var queueLengthByHour: [Int] = []
    }
}

extension RunSummary {
    /// A copy without wall-clock figures, for comparing runs exactly.
    public var withoutTimings: RunSummary {
        var copy = self
        copy.engine.wallS = 0
        copy.engine.eventsPerS = 0
        return copy
    }
}
