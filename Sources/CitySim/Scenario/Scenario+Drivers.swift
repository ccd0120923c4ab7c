extension Scenario {
    /// `drivers` — how drivers answer offers, rest and drive. Every key is optional.
    public struct Drivers: Sendable, Equatable, Encodable {
        /// `accept_probability` — probability that a driver who answers an offer accepts it (D3). In [0, 1], default 1.
        public var acceptProbability: Double
        /// `response_time` — time from an offer to the driver's answer. `DistributionSpec` of kind
        /// `fixed`, `exponential` or `lognormal`; default `{ kind: fixed, value_s: 0 }`.
        /// An answer later than `dispatch.offer_timeout_s` is a timeout (D4).
        public var responseTime: DistributionSpec
        /// `never_answer_share` — share of offers the driver silently ignores, which then time out (D4).
        /// In [0, 1], default 0.
        public var neverAnswerShare: Double
        /// `rejoin_after_decline` — time a driver who declined and became not available (D5, `on_decline:
        /// unavailable`) takes to turn available again. `DistributionSpec` of kind `fixed`, `exponential`,
        /// `lognormal` or `infinite` (not until the next shift); default `{ kind: exponential, mean_s: 120 }`.
        public var rejoinAfterDecline: DistributionSpec
        /// `breaks` — rest breaks; absent or null = no breaks. Default none.
        public var breaks: Breaks?
        /// `idle` — what an available taxi does between rides: `stay` where it is, or `drift` slowly toward the
        /// nearest hotspot. Default `stay`.
        public var idle: IdleBehavior
        /// `travel_time_cv` — coefficient of variation of actual drive times around the estimate (lognormal
        /// noise with mean 1). Number >= 0, default 0 (drive times are exact).
        public var travelTimeCV: Double

        enum CodingKeys: String, ScenarioKeys {
            case acceptProbability = "accept_probability", responseTime = "response_time"
            case neverAnswerShare = "never_answer_share", rejoinAfterDecline = "rejoin_after_decline"
            case breaks, idle, travelTimeCV = "travel_time_cv"
        }
    }

    /// `drivers.breaks` — a driver becomes not available for a break after working a while, when next idle.
    public struct Breaks: Sendable, Equatable, Encodable {
        /// `every_hours` — time on shift, hours, after which (and after each break) the next break is due. Required, > 0.
        public var everyHours: Double
        /// `minutes` — length of one break in minutes. Required, > 0.
        public var minutes: Double

        enum CodingKeys: String, ScenarioKeys {
            case everyHours = "every_hours", minutes
        }
    }

    /// `drivers.idle` values.
    public enum IdleBehavior: String, CaseIterable, Sendable, Encodable {
        case stay, drift
    }
}

// MARK: - Decoding

extension Scenario.Drivers {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        return Self(
            acceptProbability: try map.double(.acceptProbability, default: 1, .probability),
            responseTime: try map.optional(.responseTime, default: .fixed(seconds: 0)) { (r) throws(ScenarioError) in
                try DistributionSpec.read(r, allowed: DistributionSpec.durations)
            },
            neverAnswerShare: try map.double(.neverAnswerShare, default: 0, .probability),
            rejoinAfterDecline: try map.optional(.rejoinAfterDecline, default: .exponential(meanSeconds: 120)) {
                (r) throws(ScenarioError) in try DistributionSpec.read(r, allowed: DistributionSpec.durations + [.infinite])
            },
            breaks: try map.optional(.breaks) { (r) throws(ScenarioError) in
                let breaks = try r.mapping(Scenario.Breaks.CodingKeys.self)
                return Scenario.Breaks(everyHours: try breaks.double(.everyHours, .positive),
                                       minutes: try breaks.double(.minutes, .positive))
            },
            idle: try map.choice(.idle, default: .stay),
            travelTimeCV: try map.double(.travelTimeCV, default: 0, .nonNegative))
    }
}
