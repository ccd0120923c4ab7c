import Foundation
import TripPlanner

extension Scenario {
    /// `planner` — a population of trip-planner users (Travlendar+) whose days of appointments are
    /// generated, planned with `TripPlanner.DayPlanner`, and whose chosen taxi legs join the demand:
    /// a leg departing at least `dispatch.reservation_min_lead_s` after `plan_at_hours` becomes a
    /// reservation (D11, meeting time = planned departure) made at `plan_at_hours`; any other leg an
    /// immediate request made at its planned departure. Optional; absent = no planner users.
    ///
    /// Invariant: `profiles` is non-empty with a positive sum of shares; every range has low ≤ high.
    public struct Planner: Sendable, Equatable, Encodable {
        /// `users` — how many planner users. Integer >= 0. Required.
        public var users: Int
        /// `date` — the planned day, `YYYY-MM-DD`; its weekday selects the GTFS services. Required.
        /// The day is the simulation's day 0 (00:00 = the simulation's start).
        public var date: CivilDate
        /// `plan_at_hours` — when every user plans and books the day, hours since 00:00. 0 stands for
        /// "the evening before": nothing of the day has happened yet. Number in [0, 24), default 0.
        /// A profile may set its own.
        public var planAtHours: Double
        /// `transit` — the public-transport feed. Optional; without it nobody takes transit.
        public var transit: Transit?
        /// `rain_hours` — hours of the day (0–23) with rain (no bike then, see `TripPlanner.Weather`). Default none.
        public var rainHours: [Int]
        /// `strike` — hours without public transport. Optional; default no strike.
        public var strike: StrikeHours?
        /// `expected_taxi_wait_min` — the wait users assume for an immediate taxi when they plan, minutes.
        /// The simulation measures the real one. Number >= 0, default 5.
        public var expectedTaxiWaitMinutes: Double
        /// `max_walk_km` — longest walk in one leg, km (a walking trip, to a stop). Number >= 0, default 1.5.
        public var maxWalkKm: Double
        /// `disabled_means` — means nobody uses (`walk`, `bike`, `car`, `transit`, `bike-sharing`,
        /// `car-sharing`, `taxi`). Default none. (No shared vehicles are placed, so sharing never occurs.)
        public var disabledMeans: [TravelMeans]
        /// `patience` — how long a planner user's immediate request waits for an assignment (D7).
        /// A `DistributionSpec`; default `{ kind: fixed, value_s: 600 }`.
        public var patience: DistributionSpec
        /// `profiles` — the kinds of users, each drawn with probability share / sum of shares. At least one.
        public var profiles: [Scenario.PlannerProfile]
        /// Where the scenario file lies, to find `transit.gtfs` (not part of the content).
        public var source: SourceFolder

        enum CodingKeys: String, ScenarioKeys {
            case users, date, planAtHours = "plan_at_hours", transit, rainHours = "rain_hours", strike
            case expectedTaxiWaitMinutes = "expected_taxi_wait_min", maxWalkKm = "max_walk_km"
            case disabledMeans = "disabled_means", patience, profiles
        }
    }

    /// `planner.transit` — a GTFS feed placed on the city plane.
    public struct Transit: Sendable, Equatable, Encodable {
        /// `gtfs` — the feed's folder, relative to the scenario file (`gtfs/rush-hour`). Required.
        public var gtfs: String
        /// `origin_lat`, `origin_lon` — latitude and longitude of the city's south-west corner (0, 0). Required.
        public var originLat: Double
        public var originLon: Double
        /// `transfer_s` — time to change vehicles at a stop, seconds. Number >= 0, default 60.
        public var transferSeconds: Double

        enum CodingKeys: String, ScenarioKeys {
            case gtfs, originLat = "origin_lat", originLon = "origin_lon", transferSeconds = "transfer_s"
        }
    }

    /// `planner.strike` — no public transport from `from_hours` to `until_hours` of the planned day.
    public struct StrikeHours: Sendable, Equatable, Encodable {
        /// `from_hours` — start, hours. In [0, 24], default 0. `until_hours` — end, > from, <= 48; default 24.
        public var fromHours: Double
        public var untilHours: Double

        enum CodingKeys: String, ScenarioKeys { case fromHours = "from_hours", untilHours = "until_hours" }
    }

    /// The folder a scenario file was read from. Equal whatever the folder: where a file lies is not its content.
    public struct SourceFolder: Sendable, Equatable, Encodable {
        public var path: String
        public var file: String
        public static func == (_: SourceFolder, _: SourceFolder) -> Bool { true }
        public func encode(to encoder: any Encoder) throws {}
    }
}

// MARK: - Decoding

extension Scenario.Planner {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let date = try map.required(.date) { (r) throws(ScenarioError) -> CivilDate in
            let text = try r.string()
            do throws(PlannerError) { return try CivilDate(parsing: text) } catch { throw r.error(error.description) }
        }
        let profiles = try map.required(.profiles) { (r) throws(ScenarioError) -> [Scenario.PlannerProfile] in
            var profiles: [Scenario.PlannerProfile] = []
            for element in try r.sequence(minCount: 1) {
                let profile = try Scenario.PlannerProfile.read(element)
                if profiles.contains(where: { $0.name == profile.name }) {
                    throw element.error("duplicate profile name '\(profile.name)'")
                }
                profiles.append(profile)
            }
            guard profiles.contains(where: { $0.share > 0 }) else { throw r.error("expected a positive sum of shares") }
            return profiles
        }
        let rain = try map.optional(.rainHours, default: []) { (r) throws(ScenarioError) -> [Int] in
            var hours: [Int] = []
            for element in try r.sequence() { hours.append(try element.int(.closed(0, 23))) }
            return Array(Set(hours)).sorted()
        }
        return Self(
            users: try map.int(.users, .nonNegative),
            date: date,
            planAtHours: try map.double(.planAtHours, default: 0, Bounds(lower: 0, upper: 24, upperInclusive: false)),
            transit: try map.optional(.transit) { (r) throws(ScenarioError) in try Scenario.Transit.read(r) },
            rainHours: rain,
            strike: try map.optional(.strike) { (r) throws(ScenarioError) in try Scenario.StrikeHours.read(r) },
            expectedTaxiWaitMinutes: try map.double(.expectedTaxiWaitMinutes, default: 5, .nonNegative),
            maxWalkKm: try map.double(.maxWalkKm, default: 1.5, .nonNegative),
            disabledMeans: try map.optional(.disabledMeans, default: []) { (r) throws(ScenarioError) in try r.meansList() },
            patience: try map.optional(.patience, default: .fixed(seconds: 600)) { (r) throws(ScenarioError) in
                try DistributionSpec.read(r)
            },
            profiles: profiles,
            source: Scenario.SourceFolder(path: URL(fileURLWithPath: reader.file).deletingLastPathComponent().path,
                                          file: reader.file))
    }
}

extension Scenario.Transit {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        return Self(gtfs: try map.string(.gtfs), originLat: try map.double(.originLat, .closed(-90, 90)),
                    originLon: try map.double(.originLon, .closed(-180, 180)),
                    transferSeconds: try map.double(.transferSeconds, default: 60, .nonNegative))
    }
}

extension Scenario.StrikeHours {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let from = try map.double(.fromHours, default: 0, .closed(0, 24))
        let until = try map.double(.untilHours, default: 24, .closed(0, 48))
        guard until > from else {
            throw map.error(at: .untilHours, "expected a number > from_hours (\(format(from))), got \(format(until))")
        }
        return Self(fromHours: from, untilHours: until)
    }
}

extension ScenarioReader {
    /// A sequence of travel means names, sorted, without repeats.
    func meansList() throws(ScenarioError) -> [TravelMeans] {
        var means: Set<TravelMeans> = []
        for element in try sequence() { means.insert(try element.choice(TravelMeans.self)) }
        return means.sorted()
    }

    /// `[low, high]` or a single number (low = high), each within `bounds`, low <= high.
    func numberRange(_ bounds: Bounds) throws(ScenarioError) -> ClosedRange<Double> {
        if case .scalar = node.value {
            let value = try double(bounds)
            return value...value
        }
        let pair = try doubles(count: 2, bounds)
        guard pair[0] <= pair[1] else { throw error("expected [low, high] with low <= high, got [\(format(pair[0])), \(format(pair[1]))]") }
        return pair[0]...pair[1]
    }
}
