import DispatchCore
import Foundation
import TripPlanner

/// A taxi leg a planner user chose, as the simulation books it.
struct PlannedTaxiLeg: Equatable {
    /// The user (0-based); the core sees customer `PlannerDemand.firstCustomer + user`.
    var user: Int
    var origin: Position
    var destination: Position
    /// Planned departure (the reservation's meeting time), seconds since 00:00 of day 0.
    var departure: Double
    /// When the plan expects the user at the destination.
    var plannedArrival: Double
    /// The start of the activity the trip leads to; nil when the trip goes home.
    var dueAt: Double?
    /// A reservation (D11) made at the planning time, or an immediate request made at `bookAt`.
    var isReservation: Bool
    /// When the booking reaches the dispatch core.
    var bookAt: Double
    /// How long an immediate request waits for an assignment (D7).
    var patience: Double
}

/// The planner users' days: drawn from the scenario's `planner` stream, planned with
/// `TripPlanner.DayPlanner`, and reduced to what the simulation needs — the taxi legs to book —
/// and what the summary counts.
///
/// Invariants: `legs` is ordered by (`bookAt`, user, leg order in the day); every taxi leg of every
/// plan is in `legs` exactly once; the same scenario, seed and replication give the same value.
struct PlannerDemand {
    /// Customer ids of planner users start here, far above the stochastic customers'.
    static let firstCustomer = 1_000_000_000
    /// The name of the random stream the users' days are drawn from.
    static let streamName = "planner"

    var users = 0
    /// Appointments drawn, and those the plans placed (the rest were unreachable or did not fit).
    var appointments = 0
    var appointmentsScheduled = 0
    /// Trips (with at least one leg) by their main means (`Trip.mainMeans`).
    var tripsByMeans: [TravelMeans: Int] = [:]
    var legs: [PlannedTaxiLeg] = []

    /// Draws and plans every user's day.
    ///
    /// - Parameters:
    ///   - planner: the scenario's `planner` section.
    ///   - scenario: the whole scenario (fare rule, reservation lead).
    ///   - city: the simulated city (places, travel model).
    ///   - random: the `planner` stream; nothing else draws from it.
    /// - Throws: `ScenarioError` when the transit feed cannot be read.
    /// - Complexity: one `DayPlanner.plan` per user.
    static func generate(_ planner: Scenario.Planner, scenario: Scenario, city: CityModel,
                         random: RandomStream) throws -> PlannerDemand {
        let transit = try planner.transitNetwork()
        let quotes = PlannerTaxiQuotes(geometry: city.geometry, travel: city.travel, fare: scenario.dispatchRules.fare,
                                       reservationLead: scenario.dispatch.reservationMinLeadSeconds,
                                       expectedWait: planner.expectedTaxiWaitMinutes * 60)
        let generator = try PlannerDayGenerator(planner: planner, city: city)
        var demand = PlannerDemand()
        var ordered: [(leg: PlannedTaxiLeg, sequence: Int)] = []
        for user in 0..<planner.users {
            let day = try generator.draw(random)
            let planAt = day.conditions.now
            let dayPlanner = DayPlanner(conditions: day.conditions, carTravel: city.travel.estimator, transit: transit, taxi: quotes)
            let plan = dayPlanner.plan(day.appointments, criterion: day.criterion)
            demand.users += 1
            demand.appointments += day.appointments.count
            demand.appointmentsScheduled += plan.states.values.filter { $0 == .scheduled }.count
            for (index, step) in plan.steps.enumerated() {
                guard let trip = step.trip, let means = trip.mainMeans else { continue }
                demand.tripsByMeans[means, default: 0] += 1
                let next = plan.steps.indices.contains(index + 1) ? plan.steps[index + 1] : nil
                let dueAt = step.appointment != nil && next?.kind == .activity ? next?.start : nil
                for leg in trip.legs where leg.means == .taxi {
                    let reservation = quotes.isReservation(departure: leg.departure, now: planAt)
                    let taxiLeg = PlannedTaxiLeg(
                        user: user, origin: leg.from, destination: leg.to, departure: leg.departure,
                        plannedArrival: leg.arrival, dueAt: dueAt, isReservation: reservation,
                        bookAt: reservation ? planAt : max(planAt, leg.departure),
                        patience: random.duration(planner.patience))
                    ordered.append((taxiLeg, ordered.count))
                }
            }
        }
        ordered.sort { ($0.leg.bookAt, $0.sequence) < ($1.leg.bookAt, $1.sequence) }
        demand.legs = ordered.map(\.leg)
        return demand
    }
}
