import DispatchCore
@testable import TripPlanner

/// A position in metres.
func point(_ x: Double, _ y: Double) -> Position { Position(x: x, y: y) }

/// Seconds since midnight of `hours` (9.5 = 09:30).
func at(_ hours: Double) -> Double { hours * 3600 }

/// The day of every test: Friday 2025-03-14.
let testDay = try! CivilDate(year: 2025, month: 3, day: 14)

/// Home of every test, in a 10 × 10 km city.
let home = point(1000, 1000)

/// A fixed appointment on the test day.
func fixed(_ id: String, _ start: Double, _ end: Double, at place: Position, breaks: Bool = false,
           disabled: Set<TravelMeans> = []) -> Appointment {
    Appointment(id: AppointmentID(id), title: id, place: place, date: testDay,
                timing: .fixed(start: at(start), end: at(end), breaksAllowed: breaks), disabledMeans: disabled)
}

/// A flexible appointment on the test day.
func flexible(_ id: String, from start: Double, to end: Double, minutes: Double, at place: Position) -> Appointment {
    Appointment(id: AppointmentID(id), title: id, place: place, date: testDay,
                timing: .flexible(windowStart: at(start), windowEnd: at(end), duration: minutes * 60))
}

/// Cars drive 10 m/s on Manhattan streets, at every hour.
let flatTraffic = try! GridTravelModel(metric: .manhattan, detourFactor: 1, speed: 10)

/// A planner for the test day from home, with the given conditions.
func planner(ownsCar: Bool = false, ownsBike: Bool = false, seasonPass: Bool = false, maxWalk: Double = 2_000,
             rain: Set<Int> = [], sharing: [SharingVehicle] = [], transit: TransitNetwork? = nil,
             taxi: (any TaxiBooking)? = nil, strikes: [Strike] = [], primaries: Set<AppointmentID> = []) -> DayPlanner {
    var preferences = Preferences()
    preferences.maximumWalkingDistance = maxWalk
    let conditions = DayConditions(date: testDay, home: home, ownsCar: ownsCar, ownsBike: ownsBike, seasonPass: seasonPass,
                                   weather: Weather(rainyHours: rain), strikes: strikes, preferences: preferences,
                                   sharingVehicles: sharing, primaries: primaries)
    return DayPlanner(conditions: conditions, carTravel: flatTraffic, transit: transit, taxi: taxi)
}

/// A GTFS feed as file texts, from stops at city positions (projection origin 0° N 0° E) and
/// trips given as stop ids with times.
func handFeed(stops: [(id: String, position: Position)], trips: [(id: String, calls: [(stop: String, time: String)])],
              calendar: String = "S,1,1,1,1,1,1,1,20250101,20251231") -> [String: String] {
    var files: [String: String] = [:]
    files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\n" + stops.map {
        "\($0.id),Stop \($0.id),\($0.position.y / GeoProjection.metresPerDegreeLatitude),\($0.position.x / GeoProjection.metresPerDegreeLongitudeAtEquator)"
    }.joined(separator: "\n") + "\n"
    files["routes.txt"] = "route_id,route_short_name,route_long_name\nR,1,Test line\n"
    files["calendar.txt"] = "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n\(calendar)\n"
    files["trips.txt"] = "route_id,service_id,trip_id,trip_headsign\n" + trips.map { "R,S,\($0.id),end" }.joined(separator: "\n") + "\n"
    var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
    for trip in trips {
        for (index, call) in trip.calls.enumerated() { times += "\(trip.id),\(call.time),\(call.time),\(call.stop),\(index + 1)\n" }
    }
    files["stop_times.txt"] = times
    return files
}

/// A network of `handFeed` on the test day.
func network(_ files: [String: String]) throws -> TransitNetwork {
    try TransitNetwork(feed: GTFSFeed.read(files: files), date: testDay,
                       projection: GeoProjection(originLatitude: 0, originLongitude: 0))
}

/// A bus every 10 minutes 06:00–22:00 from next to home (1000, 1100) to (4000, 1100), 10 minutes a ride, both ways.
func shuttle() throws -> TransitNetwork {
    var trips: [(id: String, calls: [(stop: String, time: String)])] = []
    for minute in stride(from: 6 * 60, through: 22 * 60, by: 10) {
        func hhmm(_ m: Int) -> String { "\(m / 60 < 10 ? "0" : "")\(m / 60):\(m % 60 < 10 ? "0" : "")\(m % 60):00" }
        trips.append(("out\(minute)", [("H", hhmm(minute)), ("O", hhmm(minute + 10))]))
        trips.append(("back\(minute)", [("O", hhmm(minute)), ("H", hhmm(minute + 10))]))
    }
    return try network(handFeed(stops: [("H", point(1000, 1100)), ("O", point(4000, 1100))], trips: trips))
}

/// A dispatch core over the 10 × 10 km test city with available taxis at `taxis`.
func dispatchCore(taxis: [Position]) throws -> DispatchCore {
    let city = try CityGeometry(width: 10_000, height: 10_000, zoneArea: 2_000_000)
    let core = try DispatchCore(city: city, travel: flatTraffic, policy: DispatchPolicies.make(name: "zone-fifo"))
    for (index, position) in taxis.enumerated() {
        let driver = DriverID(index + 1)
        _ = try core.handle(.addDriver(driver, taxiCode: "TX-\(index + 1)"), at: 0)
        _ = try core.handle(.startShift(driver, at: position), at: 0)
        _ = try core.handle(.setAvailable(driver, true), at: 0)
    }
    return core
}

extension DayPlan {
    /// The means of every leg of every trip.
    var allMeans: Set<TravelMeans> { Set(trips.flatMap { $0.legs.map(\.means) }) }
}
