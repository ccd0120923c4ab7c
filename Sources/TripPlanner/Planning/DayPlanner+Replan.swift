/// A change to a day's inputs that calls for a new plan.
public enum DayChange: Sendable, Equatable {
    /// An appointment added, or replaced (same id).
    case appointment(Appointment)
    /// An appointment cancelled.
    case cancel(AppointmentID)
    /// New weather for the day.
    case weather(Weather)
    /// A strike announced.
    case strike(Strike)
    /// The user's answer to an overlap warning: this appointment is primary.
    case primary(AppointmentID)
}

/// One difference between two plans of the same day, for the user.
public struct PlanChange: Sendable, Equatable, Codable {
    /// The appointment concerned (nil: the trip home).
    public var appointment: AppointmentID?
    public var description: String
}

extension DayPlanner {
    /// Applies `change` to the conditions and `appointments`, plans the day again and says
    /// what is different from `previous`. The plan is recomputed in full (a day is small:
    /// milliseconds); the answer is the same as planning the changed inputs from scratch.
    public mutating func replan(after change: DayChange, appointments: inout [Appointment],
                                previous: DayPlan) -> (plan: DayPlan, changes: [PlanChange]) {
        switch change {
        case .appointment(let appointment):
            if let index = appointments.firstIndex(where: { $0.id == appointment.id }) {
                appointments[index] = appointment
            } else {
                appointments.append(appointment)
            }
        case .cancel(let id):
            for index in appointments.indices where appointments[index].id == id { appointments[index].state = .cancelled }
        case .weather(let weather): conditions.weather = weather
        case .strike(let strike): conditions.strikes.append(strike)
        case .primary(let id): conditions.primaries.insert(id)
        }
        let plan = self.plan(appointments, criterion: previous.criterion)
        return (plan, plan.changes(since: previous))
    }
}

extension DayPlan {
    /// What differs from `previous`: trips whose means or departure changed, activities
    /// moved, appointments that are no longer (or newly) scheduled, new warnings.
    public func changes(since previous: DayPlan) -> [PlanChange] {
        var changes: [PlanChange] = []
        let before = previous.tripSummaries, after = tripSummaries
        for (key, new) in after.sorted(by: { $0.key < $1.key }) {
            let old = before[key]
            guard old != new else { continue }
            let id = key.hasPrefix("#home") ? nil : AppointmentID(key)
            let name = id.map { "to \($0)" } ?? "home"
            if let old {
                changes.append(PlanChange(appointment: id, description:
                    "trip \(name): \(old.means) → \(new.means), leave \(ClockTime.format(old.departure)) → \(ClockTime.format(new.departure))"))
            } else {
                changes.append(PlanChange(appointment: id, description: "new trip \(name): \(new.means) at \(ClockTime.format(new.departure))"))
            }
        }
        for key in before.keys.sorted() where after[key] == nil {
            let id = key.hasPrefix("#home") ? nil : AppointmentID(key)
            changes.append(PlanChange(appointment: id, description: "no more trip \(id.map { "to \($0)" } ?? "home")"))
        }
        for (id, state) in states.sorted(by: { $0.key < $1.key }) where previous.states[id] != state {
            changes.append(PlanChange(appointment: AppointmentID(id),
                                      description: "\(id): \(previous.states[id]?.rawValue ?? "new") → \(state.rawValue)"))
        }
        for (id, _) in states.sorted(by: { $0.key < $1.key }) {
            let old = previous.activity(AppointmentID(id)).map { "\(ClockTime.format($0.start))–\(ClockTime.format($0.end))" }
            let new = activity(AppointmentID(id)).map { "\(ClockTime.format($0.start))–\(ClockTime.format($0.end))" }
            if !old.isEmpty, !new.isEmpty, old != new {
                changes.append(PlanChange(appointment: AppointmentID(id), description:
                    "\(id) moved: \(old.joined(separator: ", ")) → \(new.joined(separator: ", "))"))
            }
        }
        for warning in warnings where !previous.warnings.contains(warning) {
            changes.append(PlanChange(appointment: warning.appointments.first, description: "new warning: \(warning.message)"))
        }
        return changes
    }

    /// Each trip by its destination (appointment id, with an ordinal when repeated; `#home`).
    private var tripSummaries: [String: TripSummary] {
        var summaries: [String: TripSummary] = [:]
        for step in steps where step.kind == .trip {
            guard let trip = step.trip else { continue }
            var key = step.appointment?.rawValue ?? "#home"
            var ordinal = 1
            while summaries[key] != nil {
                ordinal += 1
                key = (step.appointment?.rawValue ?? "#home") + "#\(ordinal)"
            }
            let means = trip.legs.map(\.means.rawValue).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            summaries[key] = TripSummary(means: means.joined(separator: "+"), departure: (trip.departure / 60).rounded() * 60)
        }
        return summaries
    }
}

private struct TripSummary: Equatable {
    var means: String
    var departure: Double
}
