import DispatchCore

/// Everything random about one customer who appears at `now`: where from and to,
/// whether they reserve (and for when), their patience and whether and when they
/// cancel. Drawn in one fixed order from the demand streams only (arrivals, places,
/// patience), so the simulator and the load generator see the same customers for
/// the same seed (common random numbers).
///
/// Invariant: `meetingTime` is set exactly when `reserves`; `cancelDelay` is 0
/// unless `cancels`.
struct CustomerDraw {
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
    init(at now: Double, scenario: Scenario, city: CityModel,
         arrivals: RandomStream, places: RandomStream, patienceRandom: RandomStream) {
        let d = scenario.demand
        origin = city.drawOrigin(places)
        destination = city.drawDestination(from: origin, places)
        drawnCustomer = d.customers > 0 ? arrivals.uniformInt(below: d.customers) : -1
        reserves = d.reservations.share > 0 && arrivals.bernoulli(d.reservations.share)
        let lead = max(d.reservations.leadMinHours * 3600, scenario.dispatch.reservationMinLeadSeconds)
        let meeting = now + arrivals.uniform(in: lead..<max(lead + 1, d.reservations.leadMaxHours * 3600))
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
