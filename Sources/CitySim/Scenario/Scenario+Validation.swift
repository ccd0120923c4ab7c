extension Scenario {
    /// `validation` — textbook-queue mode, to check the simulator against queueing theory.
    ///
    /// With `enabled: true`, `pickup: instant` and `patience: { kind: zero }` the city is an M/M/c/c
    /// loss system (Erlang B); with infinite patience it is M/M/c (Erlang C).
    public struct Validation: Sendable, Equatable, Encodable {
        /// `enabled` — switch the mode on. Boolean, default false.
        public var enabled: Bool
        /// `pickup` — `instant`: no drive to the pickup, an available taxi serves the customer at once;
        /// `travel`: the taxi drives to the pickup as usual. Default `instant`.
        public var pickup: PickupMode
        /// `service_time` — ride time, replacing computed travel times. `DistributionSpec` of kind
        /// `exponential`, `fixed` or `lognormal`; default `{ kind: exponential, mean_s: 600 }`.
        public var serviceTime: DistributionSpec

        enum CodingKeys: String, ScenarioKeys {
            case enabled, pickup, serviceTime = "service_time"
        }
    }

    /// `validation.pickup` values.
    public enum PickupMode: String, CaseIterable, Sendable, Encodable {
        case instant, travel
    }
}

// MARK: - Decoding

extension Scenario.Validation {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        return Self(
            enabled: try map.bool(.enabled, default: false),
            pickup: try map.choice(.pickup, default: .instant),
            serviceTime: try map.optional(.serviceTime, default: .exponential(meanSeconds: 600)) {
                (r) throws(ScenarioError) in try DistributionSpec.read(r, allowed: DistributionSpec.durations)
            })
    }
}
