import DispatchCore

/// Plans a user's day: which means for each trip, when each flexible activity happens.
///
/// ## Algorithm
///
/// Fixed appointments keep their times; overlapping ones are resolved first (the `primaries`
/// of `DayConditions` win, otherwise the earlier one is kept provisionally and a warning asks).
/// They split the day into gaps: before the first, between two, after the last, and *inside*
/// a fixed appointment that allows breaks (a lunch out of a working day is a round trip from it).
///
/// The schedule is then the cheapest chain home → … → home found by a depth-first
/// **branch-and-bound search** over: which flexible activity (or fixed appointment) comes next,
/// and by which means each trip goes. With at most `maximumFlexible` (8) flexible activities
/// this enumerates every order and gap assignment (≤ 8! orders, far fewer after pruning), so
/// for the stated objective the result is **exact**:
///
/// - Objective, lexicographic: fewest fixed appointments left out (unreachable), then fewest
///   flexible ones left out, then the smallest sum over trips of the criterion's cost (seconds,
///   euros or grams of CO₂; ties broken by time).
/// - Each flexible activity starts at the earliest feasible moment in its window (arrival, or the
///   window's start, reached by leaving as late as possible). Being free earlier at the same place
///   never hurts what follows (one can wait), so no later start can make the rest feasible or
///   cheaper — except through time-dependent trip costs: a trip's cost is evaluated at the departure
///   the rule gives, not minimised over all departure times. For time-independent means (walk, bike,
///   flat-speed car) the schedule is optimal; with hourly traffic or timetables, the gap to the
///   optimum is at most the difference in a trip's cost between two departure times within its gap.
/// - Pruning: a branch is cut when its cost reaches the best complete plan (bound), or when an
///   earlier visit of the same state (place, next appointment, flexible left, vehicle places) was
///   no later and no costlier (dominance, which makes the search a dynamic programme over states).
///   Both are exact (dominance up to the same time-dependence caveat).
///
/// Own car and bike follow the trip-chain rule of `DayConditions`; a plan leaving one away from
/// home is not a plan.
///
/// - Complexity: O(k! · m · means) trip evaluations in the worst case for k flexible
///   activities and m fixed ones; a node budget (`maximumNodes`) bounds it, and the plan says
///   when it was reached.
///
/// ```swift
/// let planner = DayPlanner(conditions: day, carTravel: try GridTravelModel(speed: 8.3))
/// let plan = planner.plan(appointments, criterion: .greenest)
/// ```
public struct DayPlanner {
    public var conditions: DayConditions
    public var carTravel: any TravelTimeEstimator
    public var transit: TransitNetwork?
    public var taxi: (any TaxiBooking)?
    /// Flexible activities beyond this many are left out with a warning.
    public var maximumFlexible = 8
    /// Search nodes before giving up optimality.
    public var maximumNodes = 2_000_000

    public init(conditions: DayConditions, carTravel: any TravelTimeEstimator, transit: TransitNetwork? = nil,
                taxi: (any TaxiBooking)? = nil) {
        self.conditions = conditions
        self.carTravel = carTravel
        self.transit = transit
        self.taxi = taxi
    }

    static let unreachablePenalty = 1e12
    static let notPlacedPenalty = 1e9

    /// Plans the day of `conditions.date` for these appointments (their occurrences on that day).
    public func plan(_ appointments: [Appointment], criterion: Criterion) -> DayPlan {
        let occurrences = appointments.occurrences(on: conditions.date)
        var warnings: [PlanWarning] = []
        var states: [String: AppointmentState] = [:]
        for occurrence in occurrences { states[occurrence.id.rawValue] = .unscheduled }

        let (fixed, dropped, overlapWarnings) = resolveOverlaps(occurrences.filter(\.isFixed))
        warnings += overlapWarnings
        for (id, state) in dropped { states[id.rawValue] = state }

        var flexible = occurrences.filter { !$0.isFixed }.sorted { window($0).start < window($1).start }
        flexible.removeAll { appointment in
            let w = window(appointment)
            guard w.end - w.start < w.duration else { return false }
            warnings.append(PlanWarning(kind: .notPlaced, appointments: [appointment.id],
                                        message: "\(appointment.title): its window is shorter than its duration"))
            return true
        }
        if flexible.count > maximumFlexible {
            let left = flexible[maximumFlexible...].map(\.id)
            warnings.append(PlanWarning(kind: .tooManyFlexible, appointments: Array(left),
                                        message: "only \(maximumFlexible) flexible activities are planned a day"))
            flexible.removeLast(flexible.count - maximumFlexible)
        }

        var search = PlanSearch(planner: self, criterion: criterion, fixed: fixed, flexible: flexible,
                                finder: TripFinder(conditions: conditions, carTravel: carTravel,
                                                   transit: transit.map(ConnectionScanRouter.init), taxi: taxi))
        let best = search.run()

        var steps: [PlanStep] = []
        if let best {
            steps = best.steps
            for step in steps where step.kind == .activity {
                if let id = step.appointment { states[id.rawValue] = .scheduled }
            }
            for id in best.unreachable {
                let title = fixed.first { $0.id == id }?.title ?? id.rawValue
                warnings.append(PlanWarning(kind: .unreachable, appointments: [id],
                                            message: "\(title): no means gets there on time; left out"))
            }
            for (index, appointment) in flexible.enumerated() where best.remaining & (1 << index) != 0 {
                warnings.append(PlanWarning(kind: .notPlaced, appointments: [appointment.id],
                                            message: "\(appointment.title): no time left in its window"))
            }
        }
        var totals = PlanTotals()
        for trip in steps.compactMap(\.trip) {
            totals.travelSeconds += trip.duration
            totals.distance += trip.distance
            totals.cost += trip.cost
            totals.co2 += trip.co2
        }
        return DayPlan(date: conditions.date, criterion: criterion, steps: steps, warnings: warnings, states: states,
                       totals: totals, truncated: search.truncated)
    }

    /// Fixed appointments in start order without overlaps, the ones dropped and why, and the warnings.
    func resolveOverlaps(_ fixed: [Appointment]) -> ([Appointment], [(AppointmentID, AppointmentState)], [PlanWarning]) {
        let ordered = fixed.enumerated().sorted { (window($0.element).start, $0.offset) < (window($1.element).start, $1.offset) }
            .map(\.element)
        var kept: [Appointment] = []
        var dropped: [(AppointmentID, AppointmentState)] = []
        var warnings: [PlanWarning] = []
        let primaries = conditions.primaries
        for appointment in ordered {
            let a = window(appointment)
            let clashes = kept.filter { let b = window($0); return a.start < b.end && b.start < a.end }
            if clashes.isEmpty {
                kept.append(appointment)
                continue
            }
            let keepNew = primaries.contains(appointment.id) && !clashes.contains { primaries.contains($0.id) }
            for other in clashes {
                let resolution: String
                if keepNew {
                    resolution = "\(appointment.title) is primary: \(other.title) cancelled"
                } else if primaries.contains(other.id) {
                    resolution = "\(other.title) is primary: \(appointment.title) cancelled"
                } else {
                    resolution = "which is primary? keeping \(other.title) until you choose"
                }
                warnings.append(PlanWarning(kind: .overlap, appointments: [other.id, appointment.id],
                                            message: "\(other.title) and \(appointment.title) overlap; \(resolution)"))
            }
            if keepNew {
                kept.removeAll { clash in clashes.contains { $0.id == clash.id } }
                dropped += clashes.map { ($0.id, .cancelled) }
                kept.append(appointment)
                kept.sort { window($0).start < window($1).start }
            } else {
                let decided = clashes.contains { primaries.contains($0.id) }
                dropped.append((appointment.id, decided ? .cancelled : .unscheduled))
            }
        }
        return (kept, dropped, warnings)
    }

    /// Start and end (fixed) or window and duration (flexible), seconds since midnight.
    func window(_ appointment: Appointment) -> (start: Double, end: Double, duration: Double) {
        switch appointment.timing {
        case .fixed(let start, let end, _): return (start, end, end - start)
        case .flexible(let start, let end, let duration): return (start, end, duration)
        }
    }
}
