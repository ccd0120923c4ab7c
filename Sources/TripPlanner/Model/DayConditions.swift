import DispatchCore

/// The weather of the day, hour by hour: which hours it rains.
public struct Weather: Sendable, Equatable {
    /// Hours of the day (0–23) with rain.
    public var rainyHours: Set<Int>

    public init(rainyHours: Set<Int> = []) { self.rainyHours = rainyHours }

    /// Whether it rains at any moment of `[start, end]` (seconds since midnight).
    public func rains(from start: Double, to end: Double) -> Bool {
        let first = Int((start / 3600).rounded(.down)), last = Int((max(start, end) / 3600).rounded(.down))
        return (first...last).contains { rainyHours.contains($0 % 24) }
    }
}

/// A public-transport strike: no service on a date, all day or during some hours.
public struct Strike: Sendable, Equatable {
    public var date: CivilDate
    /// Seconds since midnight the strike starts and ends; nil = the whole day.
    public var from: Double?
    public var until: Double?

    public init(date: CivilDate, from: Double? = nil, until: Double? = nil) {
        self.date = date
        self.from = from
        self.until = until
    }

    /// The interval of `day` without service, or nil when the strike is on another day.
    func blockedInterval(on day: CivilDate) -> ClosedRange<Double>? {
        guard day == date else { return nil }
        return (from ?? -.infinity)...(until ?? .infinity)
    }
}

/// A group of activities that share travel rules (sport: no taxi; formal: no bike).
public struct ActivityTemplate: Sendable, Equatable {
    public var disabledMeans: Set<TravelMeans>
    public init(disabledMeans: Set<TravelMeans>) { self.disabledMeans = disabledMeans }
}

/// The user's travel preferences and constraints.
public struct Preferences: Sendable, Equatable {
    /// Means never used.
    public var disabledMeans: Set<TravelMeans> = []
    /// Longest walk in one leg, metres (a whole walking trip, a walk to a stop or to a shared vehicle).
    public var maximumWalkingDistance: Double = 2_000
    /// No own or shared bike while it rains.
    public var noBikeInRain = true
    /// No bike trip may end after this time (seconds since midnight); nil = no limit.
    public var bikeUntil: Double?
    /// No public-transport trip may end after this time; nil = no limit.
    public var transitUntil: Double?
    /// Templates by name; an appointment naming one inherits its disabled means.
    public var templates: [String: ActivityTemplate] = [:]

    public init() {}
}

/// A shared bike or car parked somewhere, with its price.
public struct SharingVehicle: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable { case bike, car }
    public var kind: Kind
    public var position: Position
    public var eurosPerMinute: Double

    public init(kind: Kind, position: Position, eurosPerMinute: Double? = nil) {
        self.kind = kind
        self.position = position
        self.eurosPerMinute = eurosPerMinute
            ?? (kind == .bike ? MeansFactors.defaultBikeSharingPerMinute : MeansFactors.defaultCarSharingPerMinute)
    }
}

/// Everything about a day that is not an appointment: where home is, what the user owns and
/// holds, the weather and the strikes, and the preferences.
///
/// The own car and bike obey the *trip-chain rule*: they start the day at home; a trip may
/// use one only when it starts where the vehicle is (so a chain of trips away from home can
/// use it only if it started with it, and a vehicle left at work can be picked up again on
/// the way back from lunch); and the day's plan must bring every owned vehicle back home.
public struct DayConditions: Sendable, Equatable {
    public var date: CivilDate
    public var home: Position
    /// When the user may leave home at the earliest, seconds since midnight.
    public var dayStart: Double
    /// When the plan is made (seconds since midnight of `date`; negative = the day before).
    /// Taxi trips starting at least the reservation lead after it are reserved (D11).
    public var now: Double
    public var ownsCar: Bool
    public var ownsBike: Bool
    public var seasonPass: Bool
    public var weather: Weather
    public var strikes: [Strike]
    public var preferences: Preferences
    public var sharingVehicles: [SharingVehicle]
    /// For each overlapping pair of fixed appointments, the one the user chose to keep.
    public var primaries: Set<AppointmentID>

    public init(date: CivilDate, home: Position, dayStart: Double = 6 * 3600, now: Double = 6 * 3600,
                ownsCar: Bool = false, ownsBike: Bool = false, seasonPass: Bool = false, weather: Weather = Weather(),
                strikes: [Strike] = [], preferences: Preferences = Preferences(),
                sharingVehicles: [SharingVehicle] = [], primaries: Set<AppointmentID> = []) {
        self.date = date
        self.home = home
        self.dayStart = dayStart
        self.now = now
        self.ownsCar = ownsCar
        self.ownsBike = ownsBike
        self.seasonPass = seasonPass
        self.weather = weather
        self.strikes = strikes
        self.preferences = preferences
        self.sharingVehicles = sharingVehicles
        self.primaries = primaries
    }

    /// The intervals of the day without public transport: strikes, and after `transitUntil`.
    var transitBlocked: [ClosedRange<Double>] {
        var blocked = strikes.compactMap { $0.blockedInterval(on: date) }
        if let until = preferences.transitUntil { blocked.append(until...Double.infinity) }
        return blocked
    }
}
