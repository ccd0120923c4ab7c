import DispatchCore

extension Scenario {
    /// `dispatch` — which policy assigns taxis and the parameters of the rules D4–D13. Every key is optional;
    /// the defaults are TAXInseconds' rules.
    public struct Dispatch: Sendable, Equatable, Encodable {
        /// `policy` — `zone-fifo` (D3 + D6: first taxi of the origin zone's queue, else the closest available),
        /// `nearest-idle` (closest available taxi) or `batch` (assignment every `batch.window_s`).
        /// Default `zone-fifo`; an unknown name is an error listing the known ones.
        public var policy: PolicyName
        /// `offer_timeout_s` — seconds a driver has to answer an offer (D4). Number > 0, default 60.
        public var offerTimeoutSeconds: Double
        /// `on_timeout` — what happens to a silent taxi (D4): `requeue` (to the tail of its zone queue) or
        /// `disconnect` (considered disconnected: not available). Default `requeue`.
        public var onTimeout: TimeoutAction
        /// `on_decline` — what happens to a declining taxi (D5): `unavailable` (TAXInseconds; back after
        /// `drivers.rejoin_after_decline`) or `requeue` (myTaxiService: to the tail of the queue). Default `unavailable`.
        public var onDecline: DeclineAction
        /// `reservation_min_lead_s` — a reservation's meeting time must be at least this many seconds ahead (D11).
        /// Number >= 0, default 7200.
        public var reservationMinLeadSeconds: Double
        /// `allocation_lead_s` — a taxi is allocated this many seconds before the meeting time (D11).
        /// Number >= 0 and <= reservation_min_lead_s, default 600.
        public var allocationLeadSeconds: Double
        /// `reservation_cancel_cutoff_s` — a reservation can be cancelled until this many seconds before the
        /// meeting time (D11; myTaxiService: 7200). Number >= 0 and <= reservation_min_lead_s, default 600.
        public var reservationCancelCutoffSeconds: Double
        /// `mad` — maximum allowed delay to reach the pickup (D9). Default `{ factor: 1.5, slack_s: 120 }`.
        public var mad: MaximumAllowedDelay
        /// `fare` — what a ride costs (D13). Default `{ base: 3.0, per_km: 1.1, per_minute: 0.3, minimum: 5.0,
        /// charge_at: dropoff }`.
        public var fare: Fare
        /// `batch` — parameters of policy `batch` (ignored by the others). Default `{ window_s: 30,
        /// candidates_per_request: 8 }`.
        public var batch: Batch
        /// `spatial_cell_km` — cell side, km, of the grid index used to find the closest taxis.
        /// Number > 0, default min(zone side, 1).
        public var spatialCellKm: Double

        enum CodingKeys: String, ScenarioKeys {
            case policy, offerTimeoutSeconds = "offer_timeout_s", onTimeout = "on_timeout", onDecline = "on_decline"
            case reservationMinLeadSeconds = "reservation_min_lead_s", allocationLeadSeconds = "allocation_lead_s"
            case reservationCancelCutoffSeconds = "reservation_cancel_cutoff_s"
            case mad, fare, batch, spatialCellKm = "spatial_cell_km"
        }
    }

    /// `dispatch.policy` values.
    public enum PolicyName: String, CaseIterable, Sendable, Encodable {
        case zoneFIFO = "zone-fifo"
        case nearestIdle = "nearest-idle"
        case batch
    }

    /// `dispatch.on_timeout` values (D4).
    public enum TimeoutAction: String, CaseIterable, Sendable, Encodable {
        case requeue, disconnect
    }

    /// `dispatch.on_decline` values (D5).
    public enum DeclineAction: String, CaseIterable, Sendable, Encodable {
        case unavailable, requeue
    }

    /// `dispatch.mad` — D9: a taxi must reach the pickup within `factor × estimated travel time + slack_s`,
    /// or the request passes to the next taxi.
    public struct MaximumAllowedDelay: Sendable, Equatable, Encodable {
        /// `factor` — multiplies the estimated travel time to the pickup. Number >= 1, default 1.5.
        public var factor: Double
        /// `slack_s` — seconds added to it. Number >= 0, default 120.
        public var slackSeconds: Double

        /// The maximum allowed delay, seconds, for an estimated travel time in seconds.
        public func seconds(estimatedTravelSeconds: Double) -> Double { factor * estimatedTravelSeconds + slackSeconds }

        enum CodingKeys: String, ScenarioKeys {
            case factor, slackSeconds = "slack_s"
        }
    }

    /// `dispatch.fare` — D13: `max(minimum, base + per_km × km + per_minute × minutes)` of the ride.
    public struct Fare: Sendable, Equatable, Encodable {
        /// `base` — flag fall, currency units. Number >= 0, default 3.0.
        public var base: Double
        /// `per_km` — price per km ridden. Number >= 0, default 1.1.
        public var perKm: Double
        /// `per_minute` — price per minute ridden. Number >= 0, default 0.3.
        public var perMinute: Double
        /// `minimum` — smallest fare. Number >= 0, default 5.0.
        public var minimum: Double
        /// `charge_at` — when the fare is charged: `pickup` (the minimum fare) or `dropoff`. Default `dropoff`.
        public var chargeAt: ChargeMoment

        /// The fare of a ride of `km` kilometres lasting `minutes` minutes.
        public func price(km: Double, minutes: Double) -> Double { max(minimum, base + perKm * km + perMinute * minutes) }

        enum CodingKeys: String, ScenarioKeys {
            case base, perKm = "per_km", perMinute = "per_minute", minimum, chargeAt = "charge_at"
        }
    }

    /// `dispatch.fare.charge_at` values.
    public enum ChargeMoment: String, CaseIterable, Sendable, Encodable {
        case pickup, dropoff
    }

    /// `dispatch.batch` — parameters of the batch policy.
    public struct Batch: Sendable, Equatable, Encodable {
        /// `window_s` — seconds between two assignment rounds. Number > 0, default 30.
        public var windowSeconds: Double
        /// `candidates_per_request` — closest available taxis considered per request. Integer >= 1, default 8.
        public var candidatesPerRequest: Int

        enum CodingKeys: String, ScenarioKeys {
            case windowSeconds = "window_s", candidatesPerRequest = "candidates_per_request"
        }
    }
}

// MARK: - Decoding

extension Scenario.Dispatch {
    static func read(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let minLead = try map.double(.reservationMinLeadSeconds, default: 7200, .nonNegative)
        let upToMinLead = Bounds.closed(0, minLead)
        let mad = try map.section(.mad).mapping(Scenario.MaximumAllowedDelay.CodingKeys.self)
        let fare = try map.section(.fare).mapping(Scenario.Fare.CodingKeys.self)
        let batch = try map.section(.batch).mapping(Scenario.Batch.CodingKeys.self)
        return Self(
            policy: try map.choice(.policy, default: .zoneFIFO),
            offerTimeoutSeconds: try map.double(.offerTimeoutSeconds, default: 60, .positive),
            onTimeout: try map.choice(.onTimeout, default: .requeue),
            onDecline: try map.choice(.onDecline, default: .unavailable),
            reservationMinLeadSeconds: minLead,
            allocationLeadSeconds: try map.double(.allocationLeadSeconds, default: min(600, minLead), upToMinLead),
            reservationCancelCutoffSeconds: try map.double(.reservationCancelCutoffSeconds, default: min(600, minLead),
                                                           upToMinLead),
            mad: Scenario.MaximumAllowedDelay(factor: try mad.double(.factor, default: 1.5, .atLeast(1)),
                                              slackSeconds: try mad.double(.slackSeconds, default: 120, .nonNegative)),
            fare: Scenario.Fare(base: try fare.double(.base, default: 3.0, .nonNegative),
                                perKm: try fare.double(.perKm, default: 1.1, .nonNegative),
                                perMinute: try fare.double(.perMinute, default: 0.3, .nonNegative),
                                minimum: try fare.double(.minimum, default: 5.0, .nonNegative),
                                chargeAt: try fare.choice(.chargeAt, default: .dropoff)),
            batch: Scenario.Batch(windowSeconds: try batch.double(.windowSeconds, default: 30, .positive),
                                  candidatesPerRequest: try batch.int(.candidatesPerRequest, default: 8, .atLeast(1))),
            spatialCellKm: try map.double(.spatialCellKm, default: min(city.zone.areaKm2.squareRoot(), 1), .positive))
    }
}

// MARK: - The dispatch core

extension Scenario {
    /// The dispatch rules D4–D13 of `dispatch`, in the core's terms.
    public var dispatchRules: DispatchRules {
        let d = dispatch
        var rules = DispatchRules()
        rules.offerTimeout = d.offerTimeoutSeconds
        rules.onTimeout = d.onTimeout == .requeue ? .requeue : .disconnect
        rules.onDecline = d.onDecline == .requeue ? .requeue : .unavailable
        rules.reservationMinimumLead = d.reservationMinLeadSeconds
        rules.allocationLead = d.allocationLeadSeconds
        rules.reservationCancelCutoff = d.reservationCancelCutoffSeconds
        rules.madFactor = d.mad.factor
        rules.madSlack = d.mad.slackSeconds
        rules.fare = FareRule(base: d.fare.base, perKilometre: d.fare.perKm, perMinute: d.fare.perMinute,
                              minimum: d.fare.minimum, chargeAt: d.fare.chargeAt == .pickup ? .pickup : .dropoff)
        return rules
    }

    /// A fresh dispatch core for this scenario's city, policy and rules — the one the
    /// simulator drives and the service hosts.
    ///
    /// ```swift
    /// let core = try Scenario.load(path: "Scenarios/smoke.yaml").makeDispatchCore()
    /// ```
    /// - Throws: `DispatchError` when the core rejects the city, policy or rules.
    public func makeDispatchCore() throws -> DispatchCore {
        try makeDispatchCore(city: CityModel(scenario: self))
    }

    /// The core over an already built city model (the simulator shares its geometry and travel model).
    func makeDispatchCore(city: CityModel) throws -> DispatchCore {
        let d = dispatch
        let policy = try DispatchPolicies.make(name: d.policy.rawValue, batchWindow: d.batch.windowSeconds,
                                               candidatesPerRequest: d.batch.candidatesPerRequest)
        return try DispatchCore(city: city.geometry, travel: city.travel.estimator, policy: policy, rules: dispatchRules,
                                spatialCellSide: d.spatialCellKm * 1000)
    }
}
