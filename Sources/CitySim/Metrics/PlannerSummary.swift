import DispatchCore
import TripPlanner

/// The `planner` block of the run summary: the planner users' days and how the fleet served the
/// taxi legs they chose. Counts cover every planner ride of the run (warm-up included, since the
/// day's reservations are booked at the planning time).
///
/// Invariants: `taxi.legs == taxi.requests + taxi.reservations + taxi.refused + taxi.notBooked`;
/// `taxi.requests + taxi.reservations == served + rejected + cancelled + expired + pendingAtEnd`;
/// the `tripsByMeans` counts add up to `trips`.
public struct PlannerSummary: Codable, Sendable, Equatable {
    public var users = 0
    /// Appointments drawn, and those the plans placed.
    public var appointments = 0
    public var appointmentsScheduled = 0
    /// Trips with at least one leg, and their split by main means.
    public var trips = 0
    public var tripsByMeans: [MeansShare] = []
    public var taxi = TaxiFigures()

    /// Trips whose main means is `means`: how many, and their share of all trips.
    public struct MeansShare: Codable, Sendable, Equatable {
        public var means = ""
        public var count = 0
        public var share = 0.0
    }

    /// The planner users' taxi legs and their rides.
    public struct TaxiFigures: Codable, Sendable, Equatable {
        /// Taxi legs in the plans; booked as immediate requests or reservations, refused by the core
        /// (D12: the user's previous immediate request still open), or not booked (after the horizon).
        public var legs = 0, requests = 0, reservations = 0, refused = 0, notBooked = 0
        /// Outcomes of the booked rides.
        public var served = 0, rejected = 0, cancelled = 0, expired = 0, pendingAtEnd = 0
        /// Request → pickup of served immediate requests.
        public var waitS = DistributionSummary()
        /// Reservations picked up by the meeting time, after it, or never (rejected or expired).
        public var reservationsOnTime = 0, reservationsLate = 0, reservationsFailed = 0
        /// Rides to an appointment dropped off after the activity's planned start: the taxi came
        /// later than planned or the ride took longer.
        public var appointmentsLate = 0
        /// Rides to an appointment that never happened (rejected, expired or pending at the end).
        public var appointmentsWithoutTaxi = 0
    }
}

extension PlannerSummary {
    /// Measures the planner users' part of a finished simulation.
    init(_ demand: PlannerDemand, bookings: [RequestID?], rides: RunResult.RideRows) {
        users = demand.users
        appointments = demand.appointments
        appointmentsScheduled = demand.appointmentsScheduled
        trips = demand.tripsByMeans.values.reduce(0, +)
        tripsByMeans = TravelMeans.allCases.compactMap { means in
            guard let count = demand.tripsByMeans[means] else { return nil }
            return MeansShare(means: means.rawValue, count: count, share: trips > 0 ? Double(count) / Double(trips) : 0)
        }
        taxi.legs = demand.legs.count
        taxi.notBooked = demand.legs.count - bookings.count
        var waits: [Double] = []
        for (leg, booking) in zip(demand.legs, bookings) {
            guard let id = booking else {
                taxi.refused += 1
                continue
            }
            let ride = rides[id.rawValue]
            if leg.isReservation { taxi.reservations += 1 } else { taxi.requests += 1 }
            switch ride.outcome {
            case "served": taxi.served += 1
            case "rejected": taxi.rejected += 1
            case "cancelled": taxi.cancelled += 1
            case "expired": taxi.expired += 1
            default: taxi.pendingAtEnd += 1
            }
            if let wait = ride.waitS { waits.append(wait) }
            if leg.isReservation {
                if let pickup = ride.pickupAt, ride.outcome == "served" {
                    if pickup <= leg.departure { taxi.reservationsOnTime += 1 } else { taxi.reservationsLate += 1 }
                } else if ride.outcome != "cancelled" {
                    taxi.reservationsFailed += 1
                }
            }
            if let due = leg.dueAt {
                if let dropoff = ride.dropoffAt {
                    if dropoff > due { taxi.appointmentsLate += 1 }
                } else {
                    taxi.appointmentsWithoutTaxi += 1
                }
            }
        }
        taxi.waitS = Statistics.distribution(waits)
    }
}
