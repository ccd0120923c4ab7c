extension Scenario {
    /// `demand` — the customers: when they ask, where they go, how long they wait.
    ///
    /// Three kinds of demand, by which key is given:
    /// - `requests_per_hour` (the synthetic model): requests arrive as a Poisson process whose rate in hour
    ///   `h` of the day is `requests_per_hour × rate_factor_by_hour[h] × scale` (see `rate(atHour:)`), times
    ///   the city's density scale under `city.fit: equal-area`; places from the city's hotspots and zones.
    /// - `trips` (`TripReplay`): the requests of a trip file, at their times, thinned or bootstrapped by `scale`.
    /// - `od_matrix` (`FittedDemand`): Poisson arrivals at a fitted model's hourly rates × `scale`, zones from
    ///   its hourly OD matrices.
    ///
    /// Exactly one is given. `rate_factor_by_hour`, `min_trip_km` and `max_trip_km` belong to the synthetic
    /// model only; the customers' other keys (reservations, patience, cancellation, customers) apply to all.
    public struct Demand: Sendable, Equatable, Encodable {
        /// `requests_per_hour` — base arrival rate, requests per hour. Number >= 0; required unless `trips` or
        /// `od_matrix` is given (then it must be left out, and is 0).
        public var requestsPerHour: Double
        /// `rate_factor_by_hour` — 24 multipliers of the base rate, one per hour of the day (index 0 = 00:00–01:00).
        /// Each >= 0, default all 1.
        public var rateFactorByHour: [Double]
        /// `scale` — multiplies the whole rate (sweeps use it); for `trips`, the replay's k (thinning below 1,
        /// bootstrap above: `TripReplay`). Number >= 0, default 1.
        public var scale: Double
        /// `min_trip_km` — destinations closer than this to the origin, in the city's metric (Manhattan or
        /// straight line, without the detour factor), are drawn again, as often as needed: trips follow the
        /// destination distribution conditioned on the length band exactly. A run fails with an error naming
        /// these keys if 10,000 draws from one origin all miss the band. Number >= 0 and < the city's larger
        /// side, default 0.
        public var minTripKm: Double
        /// `max_trip_km` — destinations farther than this (same metric) from the origin are drawn again, as
        /// for `min_trip_km`. Number > min_trip_km; default: no limit.
        public var maxTripKm: Double?
        /// `reservations` — customers who reserve ahead instead of asking now (D11). Default: none.
        public var reservations: Reservations
        /// `patience` — how long a customer waits for a taxi to be assigned when none is available (D7).
        /// A `DistributionSpec` of any kind; default `{ kind: zero }` (answered "no taxi available" at once).
        public var patience: DistributionSpec
        /// `cancellation` — customers who cancel before a driver accepts (D10). Default: nobody cancels.
        public var cancellation: Cancellation
        /// `customers` — size of the customer population that requests are drawn from; a customer has at
        /// most one open immediate request (D12), so a request from a customer with an open one is refused.
        /// 0 = every request comes from a new customer. Integer >= 0, default 0.
        public var customers: Int
        /// `trips` — replay a trip file (`TripReplay`). Default: none.
        public var trips: TripReplay? = nil
        /// `od_matrix` — draw from a fitted OD-matrix model (`FittedDemand`). Default: none.
        public var odMatrix: FittedDemand? = nil
        /// Not a key: served area / rectangle area under `city.fit: equal-area` (1 otherwise), set when the
        /// scenario is read, so that requests per km² served are the scenario's whatever the zones.
        public var densityScale = 1.0

        /// Arrival rate, requests per hour, during hour `hour` (0–23) of the day: the Poisson model's, or the
        /// fitted one's × `scale` (not scaled by area: the fit counted real trips); 0 for a trip replay.
        public func rate(atHour hour: Int) -> Double {
            if let odMatrix { return odMatrix.model.ratePerHour[hour % 24] * scale }
            return requestsPerHour * rateFactorByHour[hour % 24] * scale * densityScale
        }

        /// Expected number of requests in one 24-hour day.
        public var expectedRequestsPerDay: Double { (0..<24).map(rate(atHour:)).reduce(0, +) }

        enum CodingKeys: String, ScenarioKeys {
            case requestsPerHour = "requests_per_hour", rateFactorByHour = "rate_factor_by_hour", scale
            case minTripKm = "min_trip_km", maxTripKm = "max_trip_km", reservations, patience, cancellation, customers
            case trips, odMatrix = "od_matrix"
        }
    }

    /// `demand.reservations` — a share of customers reserve a ride for later instead of asking now (D11).
    public struct Reservations: Sendable, Equatable, Encodable {
        /// `share` — probability that a customer reserves. In [0, 1], default 0.
        public var share: Double
        /// `lead_min_hours` — smallest time, hours, between making a reservation and the meeting time.
        /// Number >= 0, default 2. Leads below `dispatch.reservation_min_lead_s` are refused by D11.
        public var leadMinHours: Double
        /// `lead_max_hours` — largest lead, hours; leads are uniform in [lead_min_hours, lead_max_hours].
        /// Number >= lead_min_hours, default 8.
        public var leadMaxHours: Double

        enum CodingKeys: String, ScenarioKeys {
            case share, leadMinHours = "lead_min_hours", leadMaxHours = "lead_max_hours"
        }
    }

    /// `demand.cancellation` — customers who give up before a driver accepts (D10).
    public struct Cancellation: Sendable, Equatable, Encodable {
        /// `probability` — probability that a request will be cancelled if still unaccepted. In [0, 1], default 0.
        public var probability: Double
        /// `mean_s` — mean of the exponential time, seconds after the request, at which it is cancelled.
        /// Number > 0, default 90.
        public var meanSeconds: Double

        enum CodingKeys: String, ScenarioKeys {
            case probability, meanSeconds = "mean_s"
        }
    }
}

// MARK: - Decoding

extension Scenario.Demand {
    static func read(_ reader: ScenarioReader, city: Scenario.City, durationHours: Double) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let trips = try map.optional(.trips) { (r) throws(ScenarioError) in
            try Scenario.TripReplay.read(r, city: city, durationHours: durationHours)
        }
        let odMatrix = try map.optional(.odMatrix) { (r) throws(ScenarioError) in try Scenario.FittedDemand.read(r, city: city) }
        if trips != nil, odMatrix != nil { throw map.error(at: .odMatrix, "give one of trips and od_matrix, not both") }
        let longest = max(city.widthKm, city.heightKm)
        let minTrip = try map.double(.minTripKm, default: 0, .nonNegative)
        guard minTrip < longest else {
            throw map.error(at: .minTripKm, "expected a number < the city's larger side (\(format(longest)) km), got \(format(minTrip))")
        }
        let maxTrip = try map.optional(.maxTripKm, default: nil) { (r) throws(ScenarioError) -> Double? in
            try r.double(.positive)
        }
        if let maxTrip, maxTrip <= minTrip {
            throw map.error(at: .maxTripKm, "expected a number > min_trip_km (\(format(minTrip))), got \(format(maxTrip))")
        }
        let real = trips != nil || odMatrix != nil
        let rate = try map.double(.requestsPerHour, default: real ? 0 : nil, .nonNegative)
        let factors = try map.hourly(.rateFactorByHour, .nonNegative)
        if real {
            // The synthetic model's keys may only be spelled out at their defaults (as the canonical JSON does).
            let synthetic: [(CodingKeys, Bool)] = [(.requestsPerHour, rate != 0), (.rateFactorByHour, factors != Array(repeating: 1, count: 24)),
                                                   (.minTripKm, minTrip != 0), (.maxTripKm, maxTrip != nil)]
            if let (key, _) = synthetic.first(where: \.1) {
                throw map.error(at: key, "belongs to the synthetic demand model; leave it out with \(trips != nil ? "trips" : "od_matrix")")
            }
        }
        return Self(
            requestsPerHour: rate,
            rateFactorByHour: factors,
            scale: try map.double(.scale, default: 1, .nonNegative),
            minTripKm: minTrip,
            maxTripKm: maxTrip,
            reservations: try Scenario.Reservations.read(map.section(.reservations)),
            patience: try map.optional(.patience, default: .zero) { (r) throws(ScenarioError) in
                try DistributionSpec.read(r)
            },
            cancellation: try Scenario.Cancellation.read(map.section(.cancellation)),
            customers: try map.int(.customers, default: 0, .nonNegative),
            trips: trips, odMatrix: odMatrix,
            densityScale: city.densityScale)
    }
}

extension Scenario.Reservations {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let low = try map.double(.leadMinHours, default: 2, .nonNegative)
        let high = try map.double(.leadMaxHours, default: max(8, low), .nonNegative)
        guard high >= low else {
            throw map.error(at: .leadMaxHours, "expected a number >= lead_min_hours (\(format(low))), got \(format(high))")
        }
        return Self(share: try map.double(.share, default: 0, .probability), leadMinHours: low, leadMaxHours: high)
    }
}

extension Scenario.Cancellation {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        return Self(probability: try map.double(.probability, default: 0, .probability),
                    meanSeconds: try map.double(.meanSeconds, default: 90, .positive))
    }
}
