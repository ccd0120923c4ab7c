import DispatchCore

/// Everything random about one customer who appears at `now`: where from and to,
/// whether they reserve (and for when), their patience and whether and when they
/// cancel. Drawn in one fixed order from the demand streams only (arrivals, places,
/// reservations, patience), so the simulator and the load generator see the same customers
/// for the same seed (common random numbers). Every customer makes the same draws from
/// each stream whatever the reservation share, so changing it moves no other customer.
///
/// The reservation lead is uniform in [`lead_min_hours`, `lead_max_hours`] as the scenario
/// says; a lead shorter than `dispatch.reservation_min_lead_s` is not raised: the core
/// refuses that request (D11) and the simulator counts it.
///
/// Invariant: `meetingTime` is set exactly when `reserves`; `cancelDelay` is 0
/// unless `cancels`.
struct CustomerDraw {
    /// What the draws need from `demand`, taken out once per run: the simulator draws every customer
    /// from it, and passing the whole `Scenario` (or `Scenario.Demand`) per customer copied it each time.
    struct Parameters {
        let customers: Int
        let reservations: Scenario.Reservations
        let patience: DistributionSpec
        let cancellation: Scenario.Cancellation

        init(_ scenario: Scenario) {
            let d = scenario.demand
            customers = d.customers
            reservations = d.reservations
            patience = d.patience
            cancellation = d.cancellation
        }
    }

    var origin: Position
    var destination: Position
    /// An index below `demand.customers`, or -1 when every request is a new customer.
    var drawnCustomer: Int
    var reserves: Bool
    var meetingTime: Double?
    var patience: Double
    var cancels: Bool
    var cancelDelay: Double

    /// Draws the customer appearing at `now`.
    ///
    /// - Throws: `TripLengthError` when no destination in the trip-length band can be drawn.
    init(at now: Double, _ d: Parameters, city: CityModel, arrivals: RandomStream, places: RandomStream,
         reservations: RandomStream, patienceRandom: RandomStream) throws(TripLengthError) {
        let origin = city.drawOrigin(places)
        self.init(at: now, origin: origin, destination: try city.drawDestination(from: origin, places), d,
                  arrivals: arrivals, reservations: reservations, patienceRandom: patienceRandom)
    }

    /// The customer appearing at `now` whose places are given (a replayed or OD-matrix trip): the same
    /// draws as above after the places.
    init(at now: Double, origin: Position, destination: Position, _ d: Parameters, arrivals: RandomStream,
         reservations: RandomStream, patienceRandom: RandomStream) {
        self.origin = origin
        self.destination = destination
        drawnCustomer = d.customers > 0 ? arrivals.uniformInt(below: d.customers) : -1
        // Two draws per customer, always, from the reservations stream.
        let share = d.reservations.share, u = reservations.uniform()
        reserves = share > 0 && u < share
        let lead = d.reservations.leadMinHours * 3600, longest = d.reservations.leadMaxHours * 3600
        let meeting = now + lead + reservations.uniform() * max(0, longest - lead)
        meetingTime = reserves ? meeting : nil
        patience = patienceRandom.duration(d.patience)
        cancels = d.cancellation.probability > 0 && patienceRandom.bernoulli(d.cancellation.probability)
        cancelDelay = cancels ? patienceRandom.exponential(mean: d.cancellation.meanSeconds) : 0
    }

    /// When the customer cancels, if they do: `cancelDelay` after the request, or for a
    /// reservation `cancelDelay` before the cancellation cut-off.
    func cancelTime(requestedAt now: Double, cutoffSeconds: Double) -> Double? {
        guard cancels else { return nil }
        if let meetingTime { return meetingTime - cutoffSeconds - cancelDelay }
        return now + cancelDelay
    }
}
