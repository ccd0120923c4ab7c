/// D4: what happens to a taxi that lets an offer lapse.
public enum TimeoutBehaviour: String, Sendable, Codable, CaseIterable {
    /// TAXInseconds: the silent taxi goes to the tail of its zone queue.
    case requeue
    /// The silent taxi is considered disconnected: not available.
    case disconnect
}

/// D5: what happens to a driver who declines.
public enum DeclineBehaviour: String, Sendable, Codable, CaseIterable {
    /// TAXInseconds: not available until they turn available again.
    case unavailable
    /// myTaxiService: to the bottom of the queue.
    case requeue
}

/// D13: when the customer pays.
public enum FareCharging: String, Sendable, Codable, CaseIterable {
    /// The minimum fare at pickup, the rest at drop-off.
    case pickup
    /// The whole fare at drop-off.
    case dropoff
}

/// D13: a fare of base + per km + per minute, never below the minimum.
/// Invariant: every amount finite and >= 0.
public struct FareRule: Sendable, Equatable {
    public var base: Double
    public var perKilometre: Double
    public var perMinute: Double
    public var minimum: Double
    public var chargeAt: FareCharging

    public init(base: Double = 3, perKilometre: Double = 1.1, perMinute: Double = 0.3,
                minimum: Double = 5, chargeAt: FareCharging = .dropoff) {
        self.base = base
        self.perKilometre = perKilometre
        self.perMinute = perMinute
        self.minimum = minimum
        self.chargeAt = chargeAt
    }

    /// The whole fare of a ride of `metres` lasting `seconds`.
    public func fare(metres: Double, seconds: Double) -> Double {
        max(minimum, base + perKilometre * metres / 1000 + perMinute * seconds / 60)
    }
}

/// The configurable dispatch rules (D4, D5, D9, D11, D13). Defaults follow TAXInseconds.
/// Invariant (checked by `validate()`): every duration finite and >= 0,
/// `allocationLead <= reservationMinimumLead`, `madFactor >= 1`.
public struct DispatchRules: Sendable, Equatable {
    /// D4: seconds a driver has to answer an offer.
    public var offerTimeout: Double = 60
    public var onTimeout: TimeoutBehaviour = .requeue
    public var onDecline: DeclineBehaviour = .unavailable
    /// D11: a reservation's meeting time must be at least this far ahead, seconds.
    public var reservationMinimumLead: Double = 7200
    /// D11: a taxi is allocated this long before the meeting time, seconds.
    public var allocationLead: Double = 600
    /// D11: a reservation can be cancelled until this long before the meeting time.
    public var reservationCancelCutoff: Double = 600
    /// D9: maximum allowed delay = madFactor × estimated travel time + madSlack.
    public var madFactor: Double = 1.5
    public var madSlack: Double = 120
    public var fare = FareRule()

    public init() {}

    /// - Throws: `DispatchError.invalidConfiguration` naming the first bad field.
    public func validate() throws(DispatchError) {
        let durations: [(String, Double)] = [
            ("offer_timeout_s", offerTimeout), ("reservation_min_lead_s", reservationMinimumLead),
            ("allocation_lead_s", allocationLead), ("reservation_cancel_cutoff_s", reservationCancelCutoff),
            ("mad.slack_s", madSlack),
        ]
        for (name, value) in durations where !(value.isFinite && value >= 0) {
            throw .invalidConfiguration("\(name) must be finite and >= 0 (got \(value))")
        }
        guard offerTimeout > 0 else { throw .invalidConfiguration("offer_timeout_s must be > 0") }
        guard allocationLead <= reservationMinimumLead else {
            throw .invalidConfiguration("allocation_lead_s must not exceed reservation_min_lead_s")
        }
        guard madFactor.isFinite, madFactor >= 1 else { throw .invalidConfiguration("mad.factor must be >= 1") }
        let money = [fare.base, fare.perKilometre, fare.perMinute, fare.minimum]
        guard money.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw .invalidConfiguration("fare amounts must be finite and >= 0")
        }
    }
}
