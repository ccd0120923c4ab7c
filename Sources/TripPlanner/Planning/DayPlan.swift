import DispatchCore

/// One line of a day's schedule: an activity, or the trip to the next one.
public struct PlanStep: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case activity, trip }
    public var kind: Kind
    /// Seconds since midnight.
    public var start: Double
    public var end: Double
    /// The activity, or the appointment the trip leads to (nil: home).
    public var appointment: AppointmentID?
    public var title: String
    /// Where the activity is, or where the trip ends.
    @PositionCoding public var place: Position
    /// The trip's legs (trip steps only).
    public var trip: Trip?
}

/// Something the user must know or decide about the day.
public struct PlanWarning: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// Two fixed appointments overlap: which is primary? (`appointments` = both; the first is kept
        /// while unanswered, unless `primaries` says otherwise.)
        case overlap
        /// No means reaches this fixed appointment on time; it is left out.
        case unreachable
        /// A flexible activity fits nowhere in its window.
        case notPlaced = "not-placed"
        /// More flexible activities than the exact search handles; the rest are left out.
        case tooManyFlexible = "too-many-flexible"
    }
    public var kind: Kind
    public var appointments: [AppointmentID]
    public var message: String
}

/// The day's totals over all trips.
public struct PlanTotals: Sendable, Equatable, Codable {
    public var travelSeconds: Double = 0
    public var distance: Double = 0
    public var cost: Double = 0
    public var co2: Double = 0

    enum CodingKeys: String, CodingKey {
        case travelSeconds = "travel_s", distance = "distance_m", cost = "cost_eur", co2 = "co2_g"
    }
}

/// A planned day: the time-ordered schedule, its warnings and the appointments' new states.
public struct DayPlan: Sendable, Equatable, Codable {
    public var date: CivilDate
    public var criterion: Criterion
    /// Time-ordered and non-overlapping: each step starts when or after the previous ended.
    public var steps: [PlanStep]
    public var warnings: [PlanWarning]
    /// Every occurrence of the day: scheduled, unscheduled or cancelled (by a primary choice).
    public var states: [String: AppointmentState]
    public var totals: PlanTotals
    /// Whether the search stopped at its node budget (the plan is then the best found, not proven optimal).
    public var truncated: Bool

    /// The trips of the day, in order.
    public var trips: [Trip] { steps.compactMap(\.trip) }

    /// The trip leading to an appointment (its first one, for an activity taken in parts).
    public func trip(to appointment: AppointmentID) -> Trip? {
        steps.first { $0.kind == .trip && $0.appointment == appointment }?.trip
    }

    /// The activity steps of an appointment (several when breaks were taken out of it).
    public func activity(_ appointment: AppointmentID) -> [PlanStep] {
        steps.filter { $0.kind == .activity && $0.appointment == appointment }
    }

    public func warnings(_ kind: PlanWarning.Kind) -> [PlanWarning] { warnings.filter { $0.kind == kind } }
}
