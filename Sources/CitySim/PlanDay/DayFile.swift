import DispatchCore
import Foundation
import TransitFeeds
import TripPlanner

/// A day file (`Scenarios/days/*.yaml`) loaded into a ready planner and the day's appointments.
///
/// Schema (every key is checked; unknown keys are errors; positions in km in the city plane):
///
/// - `city` — path (relative to the day file) of a scenario whose city (size, zones, traffic by hour) and
///   fare rule the planner uses. Required.
/// - `date` — `YYYY-MM-DD`. Required. `home` — `{ x_km, y_km }`. Required.
/// - `day_start` — earliest departure from home, `HH:MM`, default `06:00`; `now` — when the plan is made, default `day_start`.
/// - `season_pass` — bool, default false. `owns` — `{ car: bool, bike: bool }`, default neither.
/// - `weather` — `{ rain_hours: [0–23 …] }`. `strikes` — list of `{ date, from?: HH:MM, until?: HH:MM }`.
/// - `preferences` — `{ disabled_means: [walk|bike|car|transit|bike-sharing|car-sharing|taxi …], max_walk_km,
///   no_bike_in_rain, bike_until: HH:MM, transit_until: HH:MM, templates: { NAME: { disabled_means: […] } } }`.
/// - `transit` — `{ gtfs: folder or .zip, origin: { lat, lon }, transfer_s }`: the GTFS feed and the latitude/longitude
///   of the city's south-west corner. Optional (no public transport without it).
/// - `taxis` — `{ per_zone: N }`: N available taxis at each zone's centre of a dispatch core. Optional (no taxi).
/// - `sharing` — list of `{ kind: bike|car, x_km, y_km, eur_per_min? }`.
/// - `primary` — ids chosen as primary among overlapping appointments.
/// - `appointments` — list of `{ id, title?, x_km, y_km, start + end (fixed, `breaks: bool`) or window: [HH:MM, HH:MM]
///   + minutes (flexible), passengers?, disabled_means?, template?, recurrence?: { weekdays: […], until? } }`.
public struct DayFile {
    /// The planner, set up with the day's conditions, transit network and taxis.
    public var planner: DayPlanner
    /// The appointments as written (their occurrences on `date` are what gets planned).
    public var appointments: [Appointment]

    /// Loads a day file.
    /// - Throws: `DayFileError` naming the file, the line when known, the key path and the reason.
    public static func load(path: String) throws -> DayFile {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw DayFileError(file: path, line: nil, keyPath: "", reason: "cannot read the file: \(error.localizedDescription)")
        }
        return try load(yaml: text, file: path)
    }

    /// Loads a day file from its text; `file` labels errors and locates the relative `city` and `transit.gtfs` paths.
    /// - Throws: `DayFileError`.
    public static func load(yaml text: String, file path: String) throws -> DayFile {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let root = try DayValue.parse(yaml: text, file: path).mapping([
            "city", "date", "home", "day_start", "now", "season_pass", "owns", "weather", "strikes", "preferences",
            "transit", "taxis", "sharing", "primary", "appointments",
        ])
        // The city and its traffic come from a scenario file.
        let cityValue = try root.required("city")
        let scenario: Scenario
        do { scenario = try Scenario.load(path: folder.appendingPathComponent(try cityValue.string()).path) } catch {
            throw cityValue.error("cannot load the scenario: \(error)")
        }
        let city = scenario.city
        let geometry = try city.geometry()
        let traffic = try GridTravelModel(metric: city.metric == .manhattan ? .manhattan : .euclidean, detourFactor: city.detourFactor,
                                          speedByHour: (0..<24).map { city.speedKmh(atHour: $0) / 3.6 })

        let dateValue = try root.required("date")
        let date: CivilDate
        do { date = try CivilDate(parsing: try dateValue.string()) } catch { throw dateValue.error("\(error)") }
        let home = try position(root.required("home"), in: geometry)
        let dayStart = try root["day_start"]?.clock() ?? 6 * 3600
        var conditions = DayConditions(date: date, home: home, dayStart: dayStart, now: try root["now"]?.clock() ?? dayStart)
        conditions.seasonPass = try root["season_pass"]?.bool() ?? false
        if let owns = try root["owns"]?.mapping(["car", "bike"]) {
            conditions.ownsCar = try owns["car"]?.bool() ?? false
            conditions.ownsBike = try owns["bike"]?.bool() ?? false
        }
        if let weather = try root["weather"]?.mapping(["rain_hours"]) {
            conditions.weather.rainyHours = Set(try weather["rain_hours"]?.sequence().map { try $0.int(0...23) } ?? [])
        }
        for value in try root["strikes"]?.sequence() ?? [] {
            let strike = try value.mapping(["date", "from", "until"])
            let dayValue = try strike.required("date")
            let day: CivilDate
            do { day = try CivilDate(parsing: try dayValue.string()) } catch { throw dayValue.error("\(error)") }
            conditions.strikes.append(Strike(date: day, from: try strike["from"]?.clock(), until: try strike["until"]?.clock()))
        }
        if let value = root["preferences"] { conditions.preferences = try preferences(value) }
        for value in try root["sharing"]?.sequence() ?? [] {
            let vehicle = try value.mapping(["kind", "x_km", "y_km", "eur_per_min"])
            conditions.sharingVehicles.append(SharingVehicle(
                kind: try vehicle.required("kind").choice(SharingVehicle.Kind.self), position: try position(value, in: geometry),
                eurosPerMinute: try vehicle["eur_per_min"]?.double(0...100)))
        }
        conditions.primaries = Set(try root["primary"]?.sequence().map { AppointmentID(try $0.string()) } ?? [])

        var planner = DayPlanner(conditions: conditions, carTravel: traffic)
        if let value = root["transit"] { planner.transit = try transit(value, folder: folder, date: date) }
        if let value = root["taxis"] {
            let taxis = try value.mapping(["per_zone"])
            let perZone = try taxis.required("per_zone").int(0...100)
            var rules = DispatchRules()
            rules.fare = FareRule(base: scenario.dispatch.fare.base, perKilometre: scenario.dispatch.fare.perKm,
                                  perMinute: scenario.dispatch.fare.perMinute, minimum: scenario.dispatch.fare.minimum)
            let core = try DispatchCore(city: geometry, travel: traffic, policy: DispatchPolicies.make(name: "zone-fifo"), rules: rules)
            var driver = 1
            for zone in 0..<geometry.zoneCount {
                for _ in 0..<perZone {
                    _ = try core.handle(.addDriver(DriverID(driver), taxiCode: "TX-\(driver)"), at: 0)
                    _ = try core.handle(.startShift(DriverID(driver), at: geometry.centre(of: ZoneID(zone))), at: 0)
                    _ = try core.handle(.setAvailable(DriverID(driver), true), at: 0)
                    driver += 1
                }
            }
            planner.taxi = DispatchTaxiBooking(core: core, dayStart: 0)
        }
        var appointments: [Appointment] = []
        var ids: Set<String> = []
        for value in try root.required("appointments").sequence() {
            let appointment = try self.appointment(value, date: date, in: geometry)
            guard ids.insert(appointment.id.rawValue).inserted else { throw value.error("duplicate id '\(appointment.id)'") }
            appointments.append(appointment)
        }
        return DayFile(planner: planner, appointments: appointments)
    }

    private static func position(_ value: DayValue, in city: CityGeometry) throws -> Position {
        guard case .mapping(let mapping) = value.node else { throw value.error("expected a mapping with x_km and y_km") }
        var entries: [String: DayValue] = [:]
        for (key, node) in mapping {
            if let name = key.scalar?.string { entries[name] = DayValue(file: value.file, path: "\(value.path).\(name)", node: node) }
        }
        func coordinate(_ key: String, _ limit: Double) throws -> Double {
            guard let child = entries[key] else {
                throw DayFileError(file: value.file, line: value.node.mark?.line, keyPath: "\(value.path).\(key)",
                                   reason: "missing required key '\(key)'")
            }
            return try child.double(0...limit / 1000) * 1000
        }
        let position = Position(x: try coordinate("x_km", city.width), y: try coordinate("y_km", city.height))
        guard city.contains(position) else {
            throw value.error("(\(position.x / 1000), \(position.y / 1000)) km lies outside every whole zone of the city")
        }
        return position
    }

    private static func means(_ value: DayValue?) throws -> Set<TravelMeans> {
        Set(try value?.sequence().map { try $0.choice(TravelMeans.self) } ?? [])
    }

    private static func preferences(_ value: DayValue) throws -> Preferences {
        let map = try value.mapping(["disabled_means", "max_walk_km", "no_bike_in_rain", "bike_until", "transit_until", "templates"])
        var preferences = Preferences()
        preferences.disabledMeans = try means(map["disabled_means"])
        if let walk = map["max_walk_km"] { preferences.maximumWalkingDistance = try walk.double(0...100) * 1000 }
        preferences.noBikeInRain = try map["no_bike_in_rain"]?.bool() ?? true
        preferences.bikeUntil = try map["bike_until"]?.clock()
        preferences.transitUntil = try map["transit_until"]?.clock()
        if let templates = map["templates"] {
            for (name, template) in try templates.mapping(try templateNames(templates)).entries {
                let fields = try template.mapping(["disabled_means"])
                preferences.templates[name] = ActivityTemplate(disabledMeans: try means(fields["disabled_means"]))
            }
        }
        return preferences
    }

    private static func templateNames(_ value: DayValue) throws -> [String] {
        guard case .mapping(let mapping) = value.node else { throw value.error("expected a mapping of template names") }
        return mapping.compactMap { $0.key.scalar?.string }
    }

    private static func transit(_ value: DayValue, folder: URL, date: CivilDate) throws -> TransitNetwork {
        let map = try value.mapping(["gtfs", "origin", "transfer_s"])
        let gtfs = try map.required("gtfs")
        let path = folder.appendingPathComponent(try gtfs.string()).path
        let origin = try map.required("origin").mapping(["lat", "lon"])
        let projection = GeoProjection(originLatitude: try origin.required("lat").double(-90...90),
                                       originLongitude: try origin.required("lon").double(-180...180))
        let feed: GTFSFeed
        do { feed = try GTFSSource.feed(at: path) } catch { throw gtfs.error("\(error)") }
        return try TransitNetwork(feed: feed, date: date, projection: projection,
                                  transferSeconds: try map["transfer_s"]?.double(0...3600) ?? 60)
    }

    private static func appointment(_ value: DayValue, date: CivilDate, in city: CityGeometry) throws -> Appointment {
        let map = try value.mapping(["id", "title", "x_km", "y_km", "start", "end", "breaks", "window", "minutes", "passengers",
                                     "disabled_means", "template", "recurrence"])
        let id = try map.required("id").string()
        let timing: AppointmentTiming
        if let start = map["start"] {
            guard map["window"] == nil, map["minutes"] == nil else { throw value.error("give start and end, or window and minutes, not both") }
            let (from, to) = (try start.clock(), try map.required("end").clock())
            guard to > from else { throw try map.required("end").error("must be after start") }
            timing = .fixed(start: from, end: to, breaksAllowed: try map["breaks"]?.bool() ?? false)
        } else {
            let window = try map.required("window").sequence()
            guard window.count == 2 else { throw try map.required("window").error("expected [HH:MM, HH:MM]") }
            let minutes = try map.required("minutes").double(1...1440)
            timing = .flexible(windowStart: try window[0].clock(), windowEnd: try window[1].clock(), duration: minutes * 60)
        }
        var recurrence: Recurrence?
        if let value = map["recurrence"] {
            let fields = try value.mapping(["weekdays", "until"])
            let weekdays = Set(try fields.required("weekdays").sequence().map { try $0.choice(Weekday.self) })
            var until: CivilDate?
            if let last = fields["until"] {
                do { until = try CivilDate(parsing: try last.string()) } catch { throw last.error("\(error)") }
            }
            recurrence = Recurrence(weekdays: weekdays, until: until)
        }
        return Appointment(id: AppointmentID(id), title: try map["title"]?.string() ?? id, place: try position(value, in: city),
                           date: date, timing: timing, recurrence: recurrence, passengers: try map["passengers"]?.int(0...8) ?? 0,
                           disabledMeans: try means(map["disabled_means"]), template: try map["template"]?.string())
    }
}
