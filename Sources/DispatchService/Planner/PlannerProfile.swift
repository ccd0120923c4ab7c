import DispatchCore
import Foundation
import TripPlanner

/// A customer's travel preferences, what they own and hold, and where home is.
///
/// Invariant (checked by `PlannerInput.profile`): `max_walk_m` in 0–100 000; `bike_until`,
/// `transit_until` and `day_start` are `HH:MM`; template names are unique and non-empty;
/// `home`, when set, is inside the city; `time_zone`, when set, is one of `timeZoneNames`. A day cannot
/// be planned before `home` is set.
///
/// ```json
/// {"criterion":"greenest","disabled_means":["car-sharing"],"templates":[{"name":"sport","disabled_means":["taxi"]}],
///  "max_walk_m":1200,"no_bike_in_rain":true,"bike_until":"22:00","transit_until":null,"owns_car":false,
///  "owns_bike":true,"season_pass":false,"home":{"x":2300,"y":400},"day_start":"07:00"}
/// ```
struct PlannerProfile: Codable, Sendable {
    /// Switched-off means of one activity template.
    struct Template: Codable, Sendable {
        var name: String
        var disabledMeans: [TravelMeans]
    }

    var criterion: Criterion = .fastest
    /// Means switched off globally.
    var disabledMeans: [TravelMeans] = []
    var templates: [Template] = []
    /// Longest walk of one leg, metres.
    var maxWalkM: Double = 2_000
    var noBikeInRain = true
    /// No bike trip may end after this time, `HH:MM`.
    var bikeUntil: String?
    /// No public-transport trip may end after this time, `HH:MM`.
    var transitUntil: String?
    var ownsCar = false
    var ownsBike = false
    var seasonPass = false
    var home: Point?
    /// Earliest departure from home, `HH:MM`.
    var dayStart = "06:00"
    /// The IANA time zone the user's dates and `HH:MM` times are in; nil = the transit feed's
    /// `agency_timezone`, else UTC.
    var timeZone: String?

    /// The names `time_zone` accepts: Foundation's known IANA zones and `UTC`.
    static let timeZoneNames: [String] = (TimeZone.knownTimeZoneIdentifiers + ["UTC"]).sorted()

    /// The user's zone, falling back to `fallback` (the feed's zone, or UTC).
    func zone(fallback: TimeZone) -> TimeZone { timeZone.flatMap(TimeZone.init(identifier:)) ?? fallback }

    /// The planner's preferences.
    var preferences: Preferences {
        var preferences = Preferences()
        preferences.disabledMeans = Set(disabledMeans)
        preferences.maximumWalkingDistance = maxWalkM
        preferences.noBikeInRain = noBikeInRain
        preferences.bikeUntil = bikeUntil.flatMap(ClockTime.seconds)
        preferences.transitUntil = transitUntil.flatMap(ClockTime.seconds)
        for template in templates {
            preferences.templates[template.name] = ActivityTemplate(disabledMeans: Set(template.disabledMeans))
        }
        return preferences
    }
}

/// What the city is like on a date, set by an administrator: rain by hour and transit strikes.
///
/// Invariant: `rain_hours` are 0–23 without repeats; a strike's `from` < `until` when both are
/// given (`HH:MM`; a missing end is the start or the end of the day). A date never set is dry and
/// strike-free.
///
/// ```json
/// {"rain_hours":[13,14,15],"strikes":[{"from":"16:00","until":"20:00"}]}
/// ```
struct CityDayConditions: Codable, Sendable {
    /// A public-transport strike on the date; both ends nil = all day.
    struct StrikeHours: Codable, Sendable {
        var from: String?
        var until: String?
    }

    var rainHours: [Int] = []
    var strikes: [StrikeHours] = []

    /// The planner's weather and strikes for `date`.
    func model(on date: CivilDate) -> (Weather, [Strike]) {
        (Weather(rainyHours: Set(rainHours)),
         strikes.map { Strike(date: date, from: $0.from.flatMap(ClockTime.seconds), until: $0.until.flatMap(ClockTime.seconds)) })
    }
}
