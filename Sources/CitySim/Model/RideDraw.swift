/// The random parts of one request's rides, drawn when the request is made, always the same
/// number of draws from the `rideTimes` stream. Drawing them per request, not when a taxi
/// picks the customer up, keeps them the same across fleet sizes and policies that share a
/// seed (common random numbers): two configurations see the same rides.
///
/// Invariant: the noise factors are > 0 (exactly 1 without drive-time noise); `serviceTime`
/// is >= 0 and used only in validation mode.
struct RideDraw {
    /// Multiplies the estimated drive to this request's pickup (for a taxi sent again after D9, too).
    var pickupNoise: Double
    /// Multiplies the estimated drive from the pickup to the destination.
    var rideNoise: Double
    /// Validation mode: the ride's service time, seconds (0 otherwise).
    var serviceTime: Double

    /// What the draws need from the scenario, taken out once per run (see `CustomerDraw.Parameters`).
    struct Parameters {
        let travelTimeCV: Double
        /// Validation mode's service time, or nil outside validation mode.
        let serviceTime: DistributionSpec?

        init(_ scenario: Scenario) {
            travelTimeCV = scenario.drivers.travelTimeCV
            serviceTime = scenario.validation.enabled ? scenario.validation.serviceTime : nil
        }
    }

    /// Draws the request's factors: pickup noise, ride noise, then (validation mode) the service time.
    init(_ parameters: Parameters, _ random: RandomStream) {
        let cv = parameters.travelTimeCV
        pickupNoise = cv > 0 ? random.lognormal(mean: 1, cv: cv) : 1
        rideNoise = cv > 0 ? random.lognormal(mean: 1, cv: cv) : 1
        serviceTime = parameters.serviceTime.map { random.duration($0) } ?? 0
    }
}
