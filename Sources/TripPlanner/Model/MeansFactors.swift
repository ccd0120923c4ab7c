/// Speed, cost and CO₂ of each travel means: the planner's one table of factors.
///
/// All values are **approximate**, rounded, and meant for comparing means, not for
/// accounting. Sources:
///
/// | means | speed | cost | CO₂ | sources |
/// |---|---|---|---|---|
/// | walk | 5 km/h | 0 | 0 | common planning value (1.4 m/s) |
/// | own bike | 15 km/h, 1 min to unlock/park | 0.05 €/km (wear) | 0 g direct | typical urban cycling speed; ECF puts life-cycle CO₂ at ~20 g/km, not counted here |
/// | own car | city travel model (hourly traffic) + 5 min parking | 0.30 €/km (fuel, wear; a typical mileage allowance) | 170 g per vehicle-km | UK DEFRA/DESNZ 2023 GHG conversion factors, "average car, unknown fuel" ≈ 0.170 kg CO₂e/km; EEA new-car averages are similar |
/// | public transport | GTFS timetable; walk to/from stops | 2.00 € per trip and person, 0 with a season pass | 100 g per passenger-km | DEFRA 2023 "average local bus" ≈ 0.10 kg CO₂e/passenger-km; a typical urban single ticket |
/// | bike sharing | 15 km/h + 1 min unlock; walk to the nearest bike | the vehicle's price per minute (default 0.15 €/min) + 1 € unlock | 0 g direct | typical dock-less operator tariffs |
/// | car sharing | city travel model + 3 min parking; walk to the nearest car | the vehicle's price per minute (default 0.35 €/min) | 170 g per vehicle-km | tariffs of free-floating operators; DEFRA as for cars |
/// | taxi | the dispatch core's ETA and travel model | the dispatch core's fare rule (D13) | 210 g per vehicle-km | DEFRA 2023 "regular taxi" ≈ 0.21 kg CO₂e/vehicle-km (≈ 0.15 per passenger-km at 1.4 passengers) |
///
/// Cars and taxis emit per vehicle: passengers travelling along add no CO₂ and no cost;
/// transit and walking are per person.
public struct MeansFactors: Sendable, Equatable {
    /// Metres per second; nil = taken from the city's travel model or the timetable.
    public var speed: Double?
    /// Fixed time per use (parking, unlocking), seconds.
    public var overheadSeconds: Double
    /// Euros per km travelled.
    public var eurosPerKilometre: Double
    /// Euros per use (a ticket, an unlocking fee).
    public var eurosPerUse: Double
    /// Grams of CO₂ per km (per vehicle for cars and taxis, per person otherwise).
    public var gramsCO2PerKilometre: Double

    public init(speed: Double?, overheadSeconds: Double = 0, eurosPerKilometre: Double = 0, eurosPerUse: Double = 0,
                gramsCO2PerKilometre: Double = 0) {
        self.speed = speed
        self.overheadSeconds = overheadSeconds
        self.eurosPerKilometre = eurosPerKilometre
        self.eurosPerUse = eurosPerUse
        self.gramsCO2PerKilometre = gramsCO2PerKilometre
    }

    /// The table above.
    public static let standard: [TravelMeans: MeansFactors] = [
        .walk: MeansFactors(speed: 5 / 3.6),
        .ownBike: MeansFactors(speed: 15 / 3.6, overheadSeconds: 60, eurosPerKilometre: 0.05),
        .ownCar: MeansFactors(speed: nil, overheadSeconds: 300, eurosPerKilometre: 0.30, gramsCO2PerKilometre: 170),
        .transit: MeansFactors(speed: nil, eurosPerUse: 2.00, gramsCO2PerKilometre: 100),
        .bikeSharing: MeansFactors(speed: 15 / 3.6, overheadSeconds: 60, eurosPerUse: 1.00),
        .carSharing: MeansFactors(speed: nil, overheadSeconds: 180, gramsCO2PerKilometre: 170),
        .taxi: MeansFactors(speed: nil, gramsCO2PerKilometre: 210),
    ]

    /// Default price per minute of a shared bike and a shared car, euros.
    public static let defaultBikeSharingPerMinute = 0.15
    public static let defaultCarSharingPerMinute = 0.35

    /// The factors of `means` in the standard table.
    public static func of(_ means: TravelMeans) -> MeansFactors { standard[means]! }
}
