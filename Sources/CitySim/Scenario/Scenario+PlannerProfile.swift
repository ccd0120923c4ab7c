import TripPlanner

extension Scenario {
    /// `planner.profiles[i]` — one kind of planner user: what they own, what they optimise, and the
    /// appointments of their day.
    ///
    /// Invariant: appointment titles are unique; `near` names an earlier appointment of the profile.
    public struct PlannerProfile: Sendable, Equatable, Encodable {
        /// `name` — label. Required, unique among profiles.
        public var name: String
        /// `share` — relative weight of the profile in the population. Number >= 0. Required.
        public var share: Double
        /// `owns_car`, `owns_bike` — probability that a user owns one (kept at home, trip-chain rule). In [0, 1], default 0.
        public var ownsCar: Double
        public var ownsBike: Double
        /// `season_pass` — probability of a public-transport season pass (free rides). In [0, 1], default 0.
        public var seasonPass: Double
        /// `criteria` — weights of `fastest`, `cheapest`, `greenest`: each user optimises one, drawn by weight.
        /// Each >= 0, positive sum; default `{ fastest: 1 }`.
        public var criteria: CriterionWeights
        /// `disabled_means` — means users of this profile never take. Default none.
        public var disabledMeans: [TravelMeans]
        /// `day_start_hours` — earliest time to leave home, hours; drawn uniformly in `[low, high]` (or a number).
        /// In [0, 24], default 6.
        public var dayStartHours: ClosedRange<Double>
        /// `plan_at_hours` — when users of this profile plan and book the day, hours (see `planner.plan_at_hours`).
        /// In [0, 24); default: `planner.plan_at_hours`.
        public var planAtHours: Double?
        /// `appointments` — the day's appointments. At least one.
        public var appointments: [AppointmentTemplate]

        enum CodingKeys: String, ScenarioKeys {
            case name, share, ownsCar = "owns_car", ownsBike = "owns_bike", seasonPass = "season_pass", criteria
            case disabledMeans = "disabled_means", dayStartHours = "day_start_hours", planAtHours = "plan_at_hours"
            case appointments
        }
    }

    /// `planner.profiles[i].criteria` — relative weights of the planner's optimisation criteria.
    public struct CriterionWeights: Sendable, Equatable, Encodable {
        public var fastest: Double
        public var cheapest: Double
        public var greenest: Double

        enum CodingKeys: String, ScenarioKeys { case fastest, cheapest, greenest }

        /// Weights in `Criterion.allCases` order.
        var weights: [Double] { [fastest, cheapest, greenest] }
    }

    /// `planner.profiles[i].appointments[j]` — one appointment of the day, fixed or flexible.
    ///
    /// Fixed: `start_hours` (drawn uniformly, rounded to 5 min) and `hours` (its length, likewise).
    /// Flexible: `window_hours` (a fixed window) and `minutes` (its length). Give exactly one of the two forms.
    public struct AppointmentTemplate: Sendable, Equatable, Encodable {
        /// `title` — label, unique within the profile. Required.
        public var title: String
        /// `probability` — chance a user has this appointment today. In [0, 1], default 1.
        public var probability: Double
        /// `near` — title of an earlier appointment of the profile: the place is drawn uniformly within
        /// `radius_km` (straight line, clipped to the city) of that one's (home when it was not drawn today).
        /// Default: a place from the city's destination distribution (hotspots and uniform).
        public var near: String?
        /// `radius_km` — see `near`. Number > 0, default 1.
        public var radiusKm: Double
        /// `start_hours` — fixed start, hours: `[low, high]` or a number. In [0, 24].
        public var startHours: ClosedRange<Double>?
        /// `hours` — fixed length, hours: `[low, high]` or a number. > 0.
        public var hours: ClosedRange<Double>?
        /// `breaks` — a fixed appointment that flexible ones may be taken out of (lunch out of work). Default false;
        /// `true` only on a fixed appointment.
        public var breaks: Bool
        /// `window_hours` — flexible window `[start, end]`, hours in [0, 24].
        public var windowHours: ClosedRange<Double>?
        /// `minutes` — flexible length, minutes. Number > 0, at most the window.
        public var minutes: Double?
        /// `disabled_means` — means not taken to this appointment. Default none.
        public var disabledMeans: [TravelMeans]

        enum CodingKeys: String, ScenarioKeys {
            case title, probability, near, radiusKm = "radius_km", startHours = "start_hours", hours, breaks
            case windowHours = "window_hours", minutes, disabledMeans = "disabled_means"
        }

        var isFixed: Bool { startHours != nil }
    }
}

// MARK: - Decoding

extension Scenario.PlannerProfile {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let appointments = try map.required(.appointments) { (r) throws(ScenarioError) -> [Scenario.AppointmentTemplate] in
            var templates: [Scenario.AppointmentTemplate] = []
            for element in try r.sequence(minCount: 1) {
                let template = try Scenario.AppointmentTemplate.read(element)
                if templates.contains(where: { $0.title == template.title }) {
                    throw element.error("duplicate appointment title '\(template.title)'")
                }
                if let near = template.near, !templates.contains(where: { $0.title == near }) {
                    throw element.error("near: '\(near)' is not an earlier appointment of this profile")
                }
                templates.append(template)
            }
            return templates
        }
        return Self(
            name: try map.string(.name), share: try map.double(.share, .nonNegative),
            ownsCar: try map.double(.ownsCar, default: 0, .probability),
            ownsBike: try map.double(.ownsBike, default: 0, .probability),
            seasonPass: try map.double(.seasonPass, default: 0, .probability),
            criteria: try map.optional(.criteria, default: Scenario.CriterionWeights(fastest: 1, cheapest: 0, greenest: 0)) {
                (r) throws(ScenarioError) in try Scenario.CriterionWeights.read(r)
            },
            disabledMeans: try map.optional(.disabledMeans, default: []) { (r) throws(ScenarioError) in try r.meansList() },
            dayStartHours: try map.optional(.dayStartHours, default: 6...6) { (r) throws(ScenarioError) in
                try r.numberRange(.closed(0, 24))
            },
            planAtHours: try map.optional(.planAtHours) { (r) throws(ScenarioError) in
                try r.double(Bounds(lower: 0, upper: 24, upperInclusive: false))
            },
            appointments: appointments)
    }
}

extension Scenario.CriterionWeights {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let weights = Self(fastest: try map.double(.fastest, default: 0, .nonNegative),
                           cheapest: try map.double(.cheapest, default: 0, .nonNegative),
                           greenest: try map.double(.greenest, default: 0, .nonNegative))
        guard weights.weights.reduce(0, +) > 0 else { throw reader.error("expected a positive sum of weights") }
        return weights
    }
}

extension Scenario.AppointmentTemplate {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let fixed = map.has(.startHours) || map.has(.hours)
        let flexible = map.has(.windowHours) || map.has(.minutes)
        guard fixed != flexible else {
            throw reader.error("give start_hours and hours (fixed) or window_hours and minutes (flexible), not both or neither")
        }
        var template = Self(
            title: try map.string(.title), probability: try map.double(.probability, default: 1, .probability),
            near: try map.optional(.near) { (r) throws(ScenarioError) in try r.string() },
            radiusKm: try map.double(.radiusKm, default: 1, .positive),
            startHours: nil, hours: nil, breaks: false, windowHours: nil, minutes: nil,
            disabledMeans: try map.optional(.disabledMeans, default: []) { (r) throws(ScenarioError) in try r.meansList() })
        if fixed {
            template.startHours = try map.required(.startHours) { (r) throws(ScenarioError) in try r.numberRange(.closed(0, 24)) }
            template.hours = try map.required(.hours) { (r) throws(ScenarioError) in try r.numberRange(.positive) }
            template.breaks = try map.bool(.breaks, default: false)
        } else {
            let window = try map.required(.windowHours) { (r) throws(ScenarioError) in try r.numberRange(.closed(0, 24)) }
            let minutes = try map.double(.minutes, .positive)
            guard minutes <= (window.upperBound - window.lowerBound) * 60 else {
                throw map.error(at: .minutes, "expected at most the window's length (\(format((window.upperBound - window.lowerBound) * 60)) min), got \(format(minutes))")
            }
            guard try !map.bool(.breaks, default: false) else {
                throw map.error(at: .breaks, "breaks apply to fixed appointments (start_hours and hours) only")
            }
            template.windowHours = window
            template.minutes = minutes
        }
        return template
    }
}
