import DispatchCore

/// Identifies an appointment in a user's calendar.
public struct AppointmentID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static func < (a: AppointmentID, b: AppointmentID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
}

/// When an appointment takes place within its day (seconds since midnight).
public enum AppointmentTiming: Sendable, Equatable {
    /// From `start` to `end`, at its place. `breaksAllowed`: flexible activities may be
    /// taken out of it (a lunch out of a working day): the traveller leaves and comes back.
    case fixed(start: Double, end: Double, breaksAllowed: Bool)
    /// `duration` seconds somewhere inside `[windowStart, windowEnd]` (a 30 min lunch between 12:30 and 14:30).
    case flexible(windowStart: Double, windowEnd: Double, duration: Double)
}

/// The life of an appointment: planned or not, happening, done, or dropped.
public enum AppointmentState: String, Sendable, Codable, CaseIterable {
    /// Known but not (yet) placed in a schedule.
    case unscheduled
    /// Placed in the day's schedule.
    case scheduled
    /// Under way at `now`.
    case inProgress = "in-progress"
    /// Over; kept for the record, never planned again.
    case archived
    /// Dropped by the user (or by choosing another overlapping event as primary).
    case cancelled
}

/// Repeats an appointment on some weekdays from its first date until a last date.
public struct Recurrence: Sendable, Equatable {
    public var weekdays: Set<Weekday>
    /// The last day an occurrence may fall on (inclusive); nil = forever.
    public var until: CivilDate?

    public init(weekdays: Set<Weekday>, until: CivilDate? = nil) {
        self.weekdays = weekdays
        self.until = until
    }
}

/// One entry of the calendar: what, where, when, with whom, and how (not) to get there.
///
/// ```swift
/// let lunch = Appointment(id: AppointmentID("lunch"), title: "Lunch", place: Position(x: 6_300, y: 5_100),
///                         date: day, timing: .flexible(windowStart: 12.5 * 3600, windowEnd: 14.5 * 3600, duration: 1800))
/// ```
public struct Appointment: Sendable, Equatable {
    public var id: AppointmentID
    public var title: String
    public var place: Position
    /// The (first) day it takes place.
    public var date: CivilDate
    public var timing: AppointmentTiming
    public var recurrence: Recurrence?
    /// People travelling along with the user to this appointment (bikes carry nobody; transit
    /// fares are paid per person; cars and taxis carry up to 4).
    public var passengers: Int
    /// Means the user does not want to reach this appointment with.
    public var disabledMeans: Set<TravelMeans>
    /// The activity template it belongs to (its disabled means apply too).
    public var template: String?
    public var state: AppointmentState

    public init(id: AppointmentID, title: String, place: Position, date: CivilDate, timing: AppointmentTiming,
                recurrence: Recurrence? = nil, passengers: Int = 0, disabledMeans: Set<TravelMeans> = [],
                template: String? = nil, state: AppointmentState = .unscheduled) {
        self.id = id
        self.title = title
        self.place = place
        self.date = date
        self.timing = timing
        self.recurrence = recurrence
        self.passengers = passengers
        self.disabledMeans = disabledMeans
        self.template = template
        self.state = state
    }

    public var isFixed: Bool {
        if case .fixed = timing { return true }
        return false
    }

    /// Whether an occurrence falls on `day`: its first date, or, when recurrent, a listed
    /// weekday between the first date and `until`. Cancelled and archived appointments never occur.
    public func occurs(on day: CivilDate) -> Bool {
        guard state != .cancelled, state != .archived else { return false }
        guard let recurrence else { return day == date }
        guard day >= date else { return false }
        if let until = recurrence.until, day > until { return false }
        return recurrence.weekdays.contains(day.weekday)
    }

    /// The state at `now` (seconds since midnight of the occurrence's day) of a scheduled
    /// occurrence that starts at `start` and ends at `end`: in progress, then archived.
    public func state(at now: Double, start: Double, end: Double) -> AppointmentState {
        guard state == .scheduled || state == .inProgress else { return state }
        if now >= end { return .archived }
        if now >= start { return .inProgress }
        return .scheduled
    }
}

extension Array where Element == Appointment {
    /// The occurrences of these appointments on `day`, each with its (first) date set to `day`.
    public func occurrences(on day: CivilDate) -> [Appointment] {
        compactMap { appointment in
            guard appointment.occurs(on: day) else { return nil }
            var occurrence = appointment
            occurrence.date = day
            return occurrence
        }
    }
}
