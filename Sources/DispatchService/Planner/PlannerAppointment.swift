import DispatchCore
import Foundation
import TripPlanner

/// A customer's appointment as the service stores and shows it (snake_case on the wire).
///
/// Invariant (checked by `PlannerInput.appointment`): exactly one timing — fixed (`start` < `end`,
/// both `HH:MM` within the day) or flexible (`window` with `duration_min` no longer than it);
/// `place` inside the city; `passengers` 0–8; `allowed_means` (when given) and `forbidden_means`
/// name travel means; a recurrence has at least one weekday and ends no earlier than `date`.
///
/// ```json
/// {"id":3,"owner":2,"title":"Lunch","date":"2025-03-14","place":{"x":6900,"y":5500},
///  "window":{"start":"12:30","end":"14:30"},"duration_min":30,"passengers":0,"forbidden_means":[],"state":"unscheduled"}
/// ```
struct PlannerAppointment: Codable, Sendable {
    /// A flexible appointment's window, `HH:MM` each.
    struct Window: Codable, Sendable {
        var start: String
        var end: String
    }

    /// Weekly repetition: `weekdays` (monday … sunday) until `until` (inclusive; nil = forever).
    struct Repetition: Codable, Sendable {
        var weekdays: [Weekday]
        var until: CivilDate?
    }

    var id: Int
    var owner: Int
    var title: String
    /// The (first) day.
    var date: CivilDate
    var place: Point
    /// Fixed timing, `HH:MM`.
    var start: String?
    var end: String?
    /// Fixed: flexible activities may be taken out of it (a lunch out of a working day).
    var breaksAllowed: Bool?
    /// Flexible timing.
    var window: Window?
    var durationMin: Double?
    var recurrence: Repetition?
    /// People travelling along.
    var passengers: Int
    /// When given, only these means may reach the appointment.
    var allowedMeans: [TravelMeans]?
    /// Means that may not reach the appointment.
    var forbiddenMeans: [TravelMeans]
    /// The activity template (its switched-off means apply too).
    var template: String?
    /// Stored: `unscheduled` or `cancelled`; shown `archived` once its last occurrence is over.
    var state: AppointmentState

    /// The planner's model of it.
    var appointment: Appointment {
        let timing: AppointmentTiming
        if let window, let durationMin {
            timing = .flexible(windowStart: ClockTime.seconds(window.start) ?? 0, windowEnd: ClockTime.seconds(window.end) ?? 0,
                               duration: durationMin * 60)
        } else {
            timing = .fixed(start: ClockTime.seconds(start ?? "") ?? 0, end: ClockTime.seconds(end ?? "") ?? 0,
                            breaksAllowed: breaksAllowed ?? false)
        }
        var disabled = Set(forbiddenMeans)
        if let allowedMeans { disabled.formUnion(Set(TravelMeans.allCases).subtracting(allowedMeans)) }
        return Appointment(id: AppointmentID(String(id)), title: title, place: place.position, date: date, timing: timing,
                           recurrence: recurrence.map { Recurrence(weekdays: Set($0.weekdays), until: $0.until) },
                           passengers: passengers, disabledMeans: disabled, template: template, state: state)
    }

    /// Seconds since midnight at which an occurrence ends (fixed: `end`; flexible: the window's end).
    var endOfDay: Double { ClockTime.seconds(window?.end ?? end ?? "") ?? 0 }

    /// The state at `now` (seconds since 1970) for an owner in `zone`: `archived` once the last occurrence is over.
    /// - Complexity: O(1).
    func state(at now: Double, in zone: TimeZone) -> AppointmentState {
        guard state == .unscheduled || state == .scheduled else { return state }
        let last: CivilDate? = recurrence == nil ? date : recurrence?.until
        guard let last else { return state }
        return now >= last.origin(in: zone) + endOfDay ? .archived : state
    }

    /// Whether an occurrence falls on `day`, whatever the state.
    func falls(on day: CivilDate) -> Bool {
        var model = appointment
        model.state = .unscheduled
        return model.occurs(on: day)
    }
}
