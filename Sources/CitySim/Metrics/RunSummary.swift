/// The run summary of the CLI contract (design.md): what one run of a
/// scenario measured. Times in seconds, rates per hour; counts cover requests
/// made after the warm-up.
///
/// Invariant: `requests.generated == served + rejected + cancelled + expired + pendingAtEnd`.
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
    public var assignS: DistributionSummary
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

    public struct RequestCounts: Codable, Sendable, Equatable {
        public var generated = 0, served = 0, rejected = 0, cancelled = 0, expired = 0, pendingAtEnd = 0
        /// Immediate requests only (reservations are counted in `reservations`).
        public var immediate = 0
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
        /// Mean time a taxi waits available in a queue before its next offer.
        public var meanQueueWaitS = 0.0
        /// D9 reassignments.
        public var madReassignments = 0
    }
    public struct FairnessFigures: Codable, Sendable, Equatable {
        public var jainRidesPerShiftHour = 1.0
        public var giniEarnings = 0.0
        public var fifoViolations = 0
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
        /// 50th, 95th and 99th percentiles of the same waits (0 when none).
        public var p50WaitS = 0.0, p95WaitS = 0.0, p99WaitS = 0.0
        public var taxisOnShift = 0, taxisAvailable = 0
    }
    public struct ZoneFigures: Codable, Sendable, Equatable {
        public var zone = 0
        public var requests = 0
        public var meanWaitS = 0.0, p90WaitS = 0.0
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
