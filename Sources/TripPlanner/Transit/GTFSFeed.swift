/// The part of a GTFS static feed the planner uses: stops, routes, trips, stop times (untimed stops
/// interpolated), the weekly calendar and its exceptions (`calendar.txt` and/or `calendar_dates.txt`),
/// `frequencies.txt` and the agency's time zone; shapes and fares are ignored.
///
/// Invariant: every trip's stop times are ordered by `stop_sequence`, all timed, with arrival ≤
/// departure; every reference (route, service, trip, stop) resolves; `agencyTimeZone` is an IANA name
/// Foundation knows, or nil when the feed has no `agency.txt`.
///
/// ```swift
/// let feed = try GTFSFeed.read(files: ["stops.txt": stops, "routes.txt": routes, "trips.txt": trips,
///                                      "stop_times.txt": stopTimes, "calendar.txt": calendar])
/// ```
public struct GTFSFeed: Sendable {
    public struct Stop: Sendable, Equatable {
        public var id: String
        public var name: String
        public var latitude: Double
        public var longitude: Double
    }

    public struct Route: Sendable, Equatable {
        public var id: String
        public var shortName: String
        public var longName: String
    }

    public struct Trip: Sendable, Equatable {
        public var id: String
        public var routeID: String
        public var serviceID: String
        public var headsign: String
    }

    public struct StopTime: Sendable, Equatable {
        public var tripID: String
        /// Seconds after midnight of the service day (may exceed 24 h).
        public var arrival: Double
        public var departure: Double
        public var stopID: String
        public var sequence: Int
    }

    /// A `calendar.txt` row: the weekdays a service runs between two dates (inclusive).
    public struct Service: Sendable, Equatable {
        public var id: String
        public var weekdays: Set<Weekday>
        public var start: CivilDate
        public var end: CivilDate

        public func runs(on day: CivilDate) -> Bool { day >= start && day <= end && weekdays.contains(day.weekday) }
    }

    public var stops: [Stop]
    public var routes: [Route]
    public var trips: [Trip]
    public var stopTimes: [StopTime]
    public var services: [Service]
    /// `calendar_dates.txt` rows: services added or removed on single dates.
    public var serviceExceptions: [ServiceException] = []

    /// `frequencies.txt` rows: trips run from a template every `headway` seconds.
    public var frequencies: [Frequency] = []
    /// `agency_timezone` of `agency.txt` (one zone for the whole feed); nil without the file.
    public var agencyTimeZone: String?

    /// The files the reader needs, by name (and one of `calendar.txt`, `calendar_dates.txt`).
    public static let fileNames = ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]
    /// Files the reader uses when given.
    public static let optionalFileNames = ["calendar.txt", "calendar_dates.txt", "frequencies.txt", "agency.txt"]

    /// Reads a feed from the text of its files, keyed by file name.
    /// - Throws: `GTFSError` naming the file, line and field of the first problem: a missing
    ///   file or column, a bad number, time or date, an unknown reference, a duplicate id.
    /// - Complexity: O(total size of the files).
    public static func read(files: [String: String]) throws(GTFSError) -> GTFSFeed {
        func table(_ name: String) throws(GTFSError) -> CSVTable {
            guard let text = files[name] else { throw GTFSError(file: name, line: 0, field: nil, reason: "missing file") }
            return try CSVTable(file: name, text: text)
        }
        let agencyTimeZone = try files["agency.txt"] == nil ? nil : readAgencyTimeZone(table("agency.txt"))
        let stops = try readStops(table("stops.txt"))
        let routes = try readRoutes(table("routes.txt"))
        guard files["calendar.txt"] != nil || files["calendar_dates.txt"] != nil else {
            throw GTFSError(file: "calendar.txt", line: 0, field: nil,
                            reason: "missing file: a feed needs calendar.txt, calendar_dates.txt or both")
        }
        let services = try files["calendar.txt"] == nil ? [] : readCalendar(table("calendar.txt"))
        var exceptions: [ServiceException] = []
        if files["calendar_dates.txt"] != nil { exceptions = try readCalendarDates(table("calendar_dates.txt")) }
        let serviceIDs = Set(services.map(\.id)).union(exceptions.map(\.serviceID))
        let trips = try readTrips(table("trips.txt"), routes: Set(routes.map(\.id)), services: serviceIDs)
        let stopTimes = try readStopTimes(table("stop_times.txt"), trips: Set(trips.map(\.id)), stops: stops)
        let frequencies = try files["frequencies.txt"] == nil ? [] : readFrequencies(table("frequencies.txt"), trips: Set(trips.map(\.id)))
        return GTFSFeed(stops: stops, routes: routes, trips: trips, stopTimes: stopTimes, services: services,
                        serviceExceptions: exceptions, frequencies: frequencies, agencyTimeZone: agencyTimeZone)
    }

    // MARK: - Files

    private static func readStops(_ table: CSVTable) throws(GTFSError) -> [Stop] {
        let id = try table.column("stop_id"), name = try table.column("stop_name")
        let lat = try table.column("stop_lat"), lon = try table.column("stop_lon")
        var seen: Set<String> = []
        var stops: [Stop] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let stopID = try field.text(id, "stop_id")
            guard seen.insert(stopID).inserted else { throw field.error("stop_id", "duplicate stop_id '\(stopID)'") }
            stops.append(Stop(id: stopID, name: row.fields[name], latitude: try field.number(lat, "stop_lat", -90...90),
                              longitude: try field.number(lon, "stop_lon", -180...180)))
        }
        return stops
    }

    private static func readRoutes(_ table: CSVTable) throws(GTFSError) -> [Route] {
        let id = try table.column("route_id")
        let short = table.optionalColumn("route_short_name"), long = table.optionalColumn("route_long_name")
        var routes: [Route] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let shortName = short.map { row.fields[$0] } ?? "", longName = long.map { row.fields[$0] } ?? ""
            guard !shortName.isEmpty || !longName.isEmpty else {
                throw field.error("route_short_name", "a route needs route_short_name or route_long_name")
            }
            routes.append(Route(id: try field.text(id, "route_id"), shortName: shortName, longName: longName))
        }
        return routes
    }

    private static func readCalendar(_ table: CSVTable) throws(GTFSError) -> [Service] {
        let id = try table.column("service_id")
        var dayColumns: [(Weekday, Int)] = []
        for weekday in Weekday.allCases { dayColumns.append((weekday, try table.column(weekday.rawValue))) }
        let start = try table.column("start_date"), end = try table.column("end_date")
        var services: [Service] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            var weekdays: Set<Weekday> = []
            for (weekday, column) in dayColumns {
                switch row.fields[column] {
                case "1": weekdays.insert(weekday)
                case "0": break
                default: throw field.error(weekday.rawValue, "expected 0 or 1, got '\(row.fields[column])'")
                }
            }
            services.append(Service(id: try field.text(id, "service_id"), weekdays: weekdays,
                                    start: try field.date(start, "start_date"), end: try field.date(end, "end_date")))
        }
        return services
    }

    private static func readTrips(_ table: CSVTable, routes: Set<String>, services: Set<String>) throws(GTFSError) -> [Trip] {
        let route = try table.column("route_id"), service = try table.column("service_id"), id = try table.column("trip_id")
        let headsign = table.optionalColumn("trip_headsign")
        var trips: [Trip] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let routeID = try field.text(route, "route_id"), serviceID = try field.text(service, "service_id")
            guard routes.contains(routeID) else { throw field.error("route_id", "unknown route_id '\(routeID)' (not in routes.txt)") }
            guard services.contains(serviceID) else {
                throw field.error("service_id", "unknown service_id '\(serviceID)' (not in calendar.txt or calendar_dates.txt)")
            }
            trips.append(Trip(id: try field.text(id, "trip_id"), routeID: routeID, serviceID: serviceID,
                              headsign: headsign.map { row.fields[$0] } ?? ""))
        }
        return trips
    }
}

/// Reads the fields of one CSV row, turning problems into `GTFSError`s at that row.
struct FieldReader {
    let table: CSVTable
    let line: Int
    let fields: [String]

    func error(_ field: String, _ reason: String) -> GTFSError {
        GTFSError(file: table.file, line: line, field: field, reason: reason)
    }

    func text(_ column: Int, _ name: String) throws(GTFSError) -> String {
        let value = fields[column]
        guard !value.isEmpty else { throw error(name, "must not be empty") }
        return value
    }

    func number(_ column: Int, _ name: String, _ range: ClosedRange<Double>) throws(GTFSError) -> Double {
        guard let value = Double(fields[column].trimming(" ")), value.isFinite else {
            throw error(name, "expected a number, got '\(fields[column])'")
        }
        guard range.contains(value) else { throw error(name, "expected a number in \(range), got \(value)") }
        return value
    }

    func time(_ column: Int, _ name: String) throws(GTFSError) -> Double {
        guard let seconds = ClockTime.seconds(fields[column].trimming(" ")) else {
            throw error(name, "expected a time HH:MM:SS, got '\(fields[column])'")
        }
        return seconds
    }

    func date(_ column: Int, _ name: String) throws(GTFSError) -> CivilDate {
        let text = fields[column]
        guard text.count == 8, let date = try? CivilDate(parsing: text) else {
            throw error(name, "expected a date YYYYMMDD, got '\(text)'")
        }
        return date
    }
}
