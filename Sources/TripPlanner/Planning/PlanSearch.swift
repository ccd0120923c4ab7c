import DispatchCore

/// A partial plan: where the traveller is, when, with which vehicles where, what is left.
struct SearchState {
    var place: Position
    var time: Double
    /// Where the own car and bike are (nil: not owned).
    var car: Position?
    var bike: Position?
    /// Bit i set: flexible activity i not placed yet.
    var remaining: UInt32
    /// Index of the next fixed appointment to go to.
    var nextFixed: Int
    /// A fixed appointment with breaks being attended, and when its current part began.
    var inside: Int?
    var partStart: Double = 0
    var cost: Double = 0
    var steps: [PlanStep] = []
    var unreachable: [AppointmentID] = []

    /// What determines the rest of the plan, apart from time and cost.
    struct Key: Hashable {
        var place: Position
        var car: Position?
        var bike: Position?
        var remaining: UInt32
        var nextFixed: Int
        var inside: Int?
    }

    var key: Key { Key(place: place, car: car, bike: bike, remaining: remaining, nextFixed: nextFixed, inside: inside) }
}

/// The branch-and-bound search of `DayPlanner` (see there for the algorithm and its optimality).
struct PlanSearch {
    let planner: DayPlanner
    let criterion: Criterion
    let fixed: [Appointment]
    let flexible: [Appointment]
    let finder: TripFinder
    private(set) var truncated = false
    private var best: SearchState?
    private var seen: [SearchState.Key: [(time: Double, cost: Double)]] = [:]
    private var nodes = 0

    init(planner: DayPlanner, criterion: Criterion, fixed: [Appointment], flexible: [Appointment], finder: TripFinder) {
        self.planner = planner
        self.criterion = criterion
        self.fixed = fixed
        self.flexible = flexible
        self.finder = finder
    }

    var home: Position { planner.conditions.home }

    mutating func run() -> SearchState? {
        let conditions = planner.conditions
        let start = SearchState(place: home, time: conditions.dayStart, car: conditions.ownsCar ? home : nil,
                                bike: conditions.ownsBike ? home : nil,
                                remaining: flexible.isEmpty ? 0 : UInt32((1 << flexible.count) - 1), nextFixed: 0)
        explore(start)
        return best
    }

    // MARK: - Search

    private mutating func explore(_ state: SearchState) {
        if let best, state.cost >= best.cost - 1e-9 { return }
        nodes += 1
        if nodes > planner.maximumNodes {
            truncated = true
            return
        }
        if dominated(state) { return }
        if let inside = state.inside {
            exploreBreaks(state, inside: inside)
            return
        }
        if state.nextFixed < fixed.count {
            let appointment = fixed[state.nextFixed]
            let w = planner.window(appointment)
            let request = TripRequest(from: state.place, to: appointment.place, notBefore: state.time, target: w.start,
                                      deadline: w.start, appointment: appointment)
            for trip in tripOptions(request, state) {
                var next = travel(state, trip, to: appointment)
                next.nextFixed += 1
                if case .fixed(_, _, true) = appointment.timing {
                    next.inside = state.nextFixed
                    next.time = w.start
                    next.partStart = w.start
                } else {
                    next.steps.append(activity(appointment, from: w.start, to: w.end))
                    next.time = w.end
                }
                explore(next)
            }
        }
        for index in flexible.indices where state.remaining & (1 << index) != 0 {
            exploreFlexible(index, from: state) { search, placed in search.explore(placed) }
        }
        if state.nextFixed < fixed.count {
            var skipped = state
            skipped.unreachable.append(fixed[state.nextFixed].id)
            skipped.nextFixed += 1
            skipped.cost += DayPlanner.unreachablePenalty
            explore(skipped)
        } else {
            let request = TripRequest(from: state.place, to: home, notBefore: state.time, target: nil)
            for trip in tripOptions(request, state) {
                var done = travel(state, trip, to: nil)
                guard done.car.map({ $0 == home }) ?? true, done.bike.map({ $0 == home }) ?? true else { continue }
                done.cost += DayPlanner.notPlacedPenalty * Double(done.remaining.nonzeroBitCount)
                if best == nil || done.cost < best!.cost - 1e-9 { best = done }
            }
        }
    }

    /// Inside a fixed appointment with breaks: a round trip to a flexible activity, or leave at its end.
    private mutating func exploreBreaks(_ state: SearchState, inside: Int) {
        let appointment = fixed[inside]
        let end = planner.window(appointment).end
        for index in flexible.indices where state.remaining & (1 << index) != 0 {
            exploreFlexible(index, from: state, deadline: end) { search, placed in
                let back = TripRequest(from: placed.place, to: appointment.place, notBefore: placed.time, target: nil,
                                       deadline: end, appointment: appointment)
                for trip in search.tripOptions(back, placed) {
                    var returned = search.travel(placed, trip, to: appointment)
                    returned.time = trip.arrival
                    returned.partStart = trip.arrival
                    search.explore(returned)
                }
            }
        }
        var leaving = state
        leaving.steps.append(activity(appointment, from: state.partStart, to: end))
        leaving.time = end
        leaving.inside = nil
        explore(leaving)
    }

    /// Goes to flexible activity `index` and does it at the earliest feasible moment of its window,
    /// then hands the state over to `continuation`. `deadline`: when the traveller must be free again
    /// at the latest (the end of an appointment a break is taken from).
    private mutating func exploreFlexible(_ index: Int, from state: SearchState, deadline: Double = .infinity,
                                          continuation: (inout PlanSearch, SearchState) -> Void) {
        let appointment = flexible[index]
        let w = planner.window(appointment)
        var latestEnd = w.end
        if state.inside == nil, state.nextFixed < fixed.count {
            latestEnd = min(latestEnd, planner.window(fixed[state.nextFixed]).start)
        }
        latestEnd = min(latestEnd, deadline)
        guard state.time + w.duration <= latestEnd else { return }
        let request = TripRequest(from: state.place, to: appointment.place, notBefore: state.time, target: w.start,
                                  deadline: latestEnd - w.duration, appointment: appointment)
        for trip in tripOptions(request, state) {
            let start = max(trip.arrival, w.start)
            guard start + w.duration <= latestEnd + 1e-6 else { continue }
            var next = state
            if let inside = state.inside {  // the part of the appointment before the break
                next.steps.append(activity(fixed[inside], from: state.partStart, to: trip.departure))
            }
            next = travel(next, trip, to: appointment)
            next.remaining &= ~(1 << index)
            next.steps.append(activity(appointment, from: start, to: start + w.duration))
            next.time = start + w.duration
            continuation(&self, next)
        }
    }

    // MARK: - Steps

    /// The state after `trip`: at its end, with the own vehicles it used moved along.
    private func travel(_ state: SearchState, _ trip: Trip, to appointment: Appointment?) -> SearchState {
        var next = state
        next.place = trip.to
        next.time = trip.arrival
        if trip.uses(.ownCar) { next.car = trip.to }
        if trip.uses(.ownBike) { next.bike = trip.to }
        next.cost += trip.cost(by: criterion)
        if !trip.legs.isEmpty {
            next.steps.append(PlanStep(kind: .trip, start: trip.departure, end: trip.arrival, appointment: appointment?.id,
                                       title: appointment.map { "to \($0.title)" } ?? "home", place: trip.to, trip: trip))
        }
        return next
    }

    private func activity(_ appointment: Appointment, from start: Double, to end: Double) -> PlanStep {
        PlanStep(kind: .activity, start: start, end: end, appointment: appointment.id, title: appointment.title,
                 place: appointment.place, trip: nil)
    }

    /// The trips worth exploring: for each effect on the own vehicles, those not beaten on both
    /// cost and arrival by another; cheapest first.
    private func tripOptions(_ request: TripRequest, _ state: SearchState) -> [Trip] {
        var request = request
        request.carHere = state.car == state.place
        request.bikeHere = state.bike == state.place
        let trips = finder.options(request).sorted { $0.cost(by: criterion) < $1.cost(by: criterion) }
        var kept: [Trip] = []
        for trip in trips {
            let effect = (trip.uses(.ownCar), trip.uses(.ownBike))
            let beaten = kept.contains { other in
                (other.uses(.ownCar), other.uses(.ownBike)) == effect && other.arrival <= trip.arrival
            }
            if !beaten { kept.append(trip) }
        }
        return kept
    }

    /// Whether an earlier visit of the same key was no later and no costlier; records this visit otherwise.
    private mutating func dominated(_ state: SearchState) -> Bool {
        let key = state.key
        var visits = seen[key, default: []]
        if visits.contains(where: { $0.time <= state.time + 1e-6 && $0.cost <= state.cost + 1e-9 }) { return true }
        visits.removeAll { $0.time >= state.time && $0.cost >= state.cost }
        visits.append((state.time, state.cost))
        seen[key] = visits
        return false
    }
}
