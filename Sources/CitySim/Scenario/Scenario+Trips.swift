import DispatchCore
import Foundation

extension Scenario {
    /// `demand.trips` — replay a file of real trips instead of the Poisson process: each trip becomes a
    /// request at its pickup time, from its origin to its destination.
    ///
    /// ```yaml
    /// demand:
    ///   scale: 1            # demand.scale: k < 1 thins, k > 1 bootstraps (below)
    ///   trips:
    ///     file: trips/nyc-sample.csv
    ///     columns: { pickup_time: tpep_pickup_datetime, origin_zone: PULocationID,
    ///                destination_zone: DOLocationID, passengers: passenger_count }
    ///     zone_base: 1
    ///     start: "2024-01-15 00:00:00"
    /// ```
    ///
    /// **Time.** A trip at trace time `t` is requested at simulated `t − start` (the time shift); trips
    /// before `start` or at/after `start + duration_hours` are not simulated. Times are read by `TraceTime`:
    /// `YYYY-MM-DD HH:MM:SS`, ISO 8601, or seconds.
    ///
    /// **Places.** Per endpoint exactly one of: `*_x_m` + `*_y_m` (metres east and north of the stated
    /// rectangle's south-west corner), `*_lat` + `*_lon` (needs `city.projection`), or `*_zone` (a zone ID:
    /// the point is drawn uniformly inside that zone, `ZonePoints`, from the run's `tripReplay` stream, so
    /// every replication has its own points and the same seed the same ones).
    ///
    /// **Scaling and resampling** by `demand.scale` = k, per trip of the window, from the `tripReplay`
    /// stream (`ReplaySchedule`): the trip is requested ⌊k⌋ times, plus once more with probability
    /// k − ⌊k⌋ (so k < 1 keeps each trip with probability k: thinning; k > 1 bootstraps: E[copies] = k
    /// with the least variance). The first copy keeps the trace's time; every further copy is moved by
    /// a uniform jitter in ±`jitter_s` (and for zone-ID trips gets its own points), so copies differ
    /// while the hourly and spatial pattern stays the trace's. k = 1 replays the trace exactly.
    ///
    /// **Bad input.** The file is read when the scenario is loaded; every error names the file, the
    /// line, the column and the reason (`trips.csv:17: column 'PULocationID' (8): expected an integer
    /// zone ID, got 'x'`), and a mapped column missing from the header names the mapping key and the
    /// header. Rows whose place is not in the city follow `outside_city`.
    public struct TripReplay: Sendable, Equatable, Encodable {
        /// `file` — the CSV (comma-separated, a header row, RFC 4180 quotes), relative to the scenario file unless
        /// absolute. Required.
        public var file: String
        /// `columns` — which header names the file uses for each field. Required.
        public var columns: TripColumns
        /// `zone_base` — the zone ID of the city's first zone: 0 (default) or 1. Zone ID `i` is the city's
        /// zone `i − zone_base` (zones numbered row by row from the south-west, as in the per-zone report).
        public var zoneBase: Int
        /// `start` — the trace time that becomes simulated 00:00: a date-time (`"2024-01-15 00:00:00"`) or
        /// seconds. Default: 00:00 of the first trip's day (0 for a trace in seconds from 0).
        public var start: String?
        /// `jitter_s` — the largest time shift, seconds, of a bootstrapped copy of a trip. Number >= 0, default 300.
        public var jitterSeconds: Double
        /// `outside_city` — a row whose origin or destination is not in the city (an unknown zone ID, or a
        /// point outside every zone): `error` (default) stops the load naming the row; `drop` skips it and
        /// counts it (`run` prints the count).
        public var outsideCity: OutsideCity
        /// The trips as read, shared by every run of the scenario. Its key `trace_hash` (16 hex digits, the
        /// FNV-1a of the file's bytes and the mapping: `TripTable.contentHash`) is optional; when given, the
        /// file must still have it. The canonical JSON writes it, so a recorded scenario pins its data.
        public var trace: TripTable

        enum CodingKeys: String, ScenarioKeys {
            case file, columns, zoneBase = "zone_base", start, jitterSeconds = "jitter_s", outsideCity = "outside_city"
            case traceHash = "trace_hash"
        }

        /// Encodes the keys and the trace's content hash, so a changed file changes the scenario's hash.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(columns, forKey: .columns)
            try container.encode(zoneBase, forKey: .zoneBase)
            try container.encodeIfPresent(start, forKey: .start)
            try container.encode(jitterSeconds, forKey: .jitterSeconds)
            try container.encode(outsideCity.rawValue, forKey: .outsideCity)
            try container.encode(trace.contentHash, forKey: .traceHash)
        }

        /// What was read, for `run` to print: rows, kept, dropped, in the window.
        public func readingReport(durationHours: Double) -> String {
            "\(file): \(trace.rows) rows, \(trace.count) kept, \(trace.droppedOutsideCity) dropped (outside_city), "
                + "\(trace.count(from: startSeconds, seconds: durationHours * 3600)) in the simulated window"
        }

        /// Simulated seconds of trace time `t`: `t − start` (start defaulted to the first trip's midnight).
        public var startSeconds: Double {
            if let start, let seconds = TraceTime.seconds(start) { return seconds }
            return trace.firstMidnight
        }
    }

    /// `demand.trips.outside_city` values.
    public enum OutsideCity: String, CaseIterable, Sendable, Encodable {
        case error, drop
    }

    /// `demand.trips.columns` — the file's header name for each field. `pickup_time` is required; the origin
    /// and the destination each need exactly one of x/y metres, lat/lon or a zone ID; `passengers` is optional
    /// (read and checked — an integer >= 0, blank = 1 — and counted; the core's taxis carry one party).
    public struct TripColumns: Sendable, Equatable, Encodable {
        /// `pickup_time` — when the customer asks (the request time).
        public var pickupTime: String
        /// `origin_x_m`, `origin_y_m` — pickup point in metres.
        public var originX: String?, originY: String?
        /// `origin_lat`, `origin_lon` — pickup point in degrees (needs `city.projection`).
        public var originLat: String?, originLon: String?
        /// `origin_zone` — pickup zone ID.
        public var originZone: String?
        /// `destination_x_m`, `destination_y_m`, `destination_lat`, `destination_lon`, `destination_zone` — likewise.
        public var destinationX: String?, destinationY: String?
        public var destinationLat: String?, destinationLon: String?
        public var destinationZone: String?
        /// `passengers` — party size.
        public var passengers: String?

        enum CodingKeys: String, ScenarioKeys {
            case pickupTime = "pickup_time", originX = "origin_x_m", originY = "origin_y_m"
            case originLat = "origin_lat", originLon = "origin_lon", originZone = "origin_zone"
            case destinationX = "destination_x_m", destinationY = "destination_y_m"
            case destinationLat = "destination_lat", destinationLon = "destination_lon"
            case destinationZone = "destination_zone", passengers
        }
    }
}

// MARK: - Decoding

extension Scenario.TripReplay {
    static func read(_ reader: ScenarioReader, city: Scenario.City, durationHours: Double) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let columns = try map.required(.columns) { (r) throws(ScenarioError) in try Scenario.TripColumns.read(r, city: city) }
        let zoneBase = try map.int(.zoneBase, default: 0, .closed(0, 1))
        let start = try map.optional(.start) { (r) throws(ScenarioError) -> String in
            let text = try r.string()
            guard TraceTime.seconds(text) != nil else {
                throw r.error("expected a date-time (\"2024-01-15 00:00:00\") or seconds, got '\(text)'")
            }
            return text
        }
        let file = try map.string(.file)
        let outside: Scenario.OutsideCity = try map.choice(.outsideCity, default: .error)
        let path = Scenario.path(of: file, besides: reader.file)
        let trace: TripTable
        do {
            trace = try TripFileReader(columns: columns, zoneBase: zoneBase, city: city, outsideCity: outside).read(path: path)
        } catch {
            throw map.error(at: .file, error.description)
        }
        if let pinned = try map.optional(.traceHash, { (r) throws(ScenarioError) in try r.string() }), pinned != trace.contentHash {
            throw map.error(at: .traceHash, "\(file) has changed: it reads to hash \(trace.contentHash), not \(pinned)")
        }
        let replay = Self(file: file, columns: columns, zoneBase: zoneBase, start: start,
                          jitterSeconds: try map.double(.jitterSeconds, default: 300, .nonNegative),
                          outsideCity: outside, trace: trace)
        guard trace.count(from: replay.startSeconds, seconds: durationHours * 3600) > 0 else {
            throw map.error(at: map.has(.start) ? .start : .file, "no trip of \(file) (\(trace.count) kept of \(trace.rows) rows) "
                            + "falls in the simulated window [start, start + duration_hours)")
        }
        return replay
    }
}

extension Scenario {
    /// A data file named in a scenario: as it is when absolute, else relative to the scenario file's folder.
    static func path(of file: String, besides scenarioFile: String) -> String {
        if file.hasPrefix("/") { return file }
        return URL(fileURLWithPath: scenarioFile).deletingLastPathComponent().appendingPathComponent(file).path
    }
}

extension Scenario.TripColumns {
    static func read(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        func name(_ key: CodingKeys) throws(ScenarioError) -> String? {
            try map.optional(key) { (r) throws(ScenarioError) in try r.string() }
        }
        let columns = Self(
            pickupTime: try map.string(.pickupTime),
            originX: try name(.originX), originY: try name(.originY),
            originLat: try name(.originLat), originLon: try name(.originLon), originZone: try name(.originZone),
            destinationX: try name(.destinationX), destinationY: try name(.destinationY),
            destinationLat: try name(.destinationLat), destinationLon: try name(.destinationLon),
            destinationZone: try name(.destinationZone), passengers: try name(.passengers))
        for end in ["origin", "destination"] {
            let (x, y, lat, lon, zone) = end == "origin"
                ? (columns.originX, columns.originY, columns.originLat, columns.originLon, columns.originZone)
                : (columns.destinationX, columns.destinationY, columns.destinationLat, columns.destinationLon, columns.destinationZone)
            let forms = [(x != nil || y != nil), (lat != nil || lon != nil), zone != nil].filter { $0 }.count
            guard forms == 1 else {
                throw reader.error("the \(end) needs exactly one of \(end)_x_m + \(end)_y_m, \(end)_lat + \(end)_lon, "
                                   + "or \(end)_zone; got \(forms == 0 ? "none" : "more than one")")
            }
            if (x == nil) != (y == nil) { throw reader.error("give both \(end)_x_m and \(end)_y_m") }
            if (lat == nil) != (lon == nil) { throw reader.error("give both \(end)_lat and \(end)_lon") }
            if lat != nil, city.geographic == nil {
                throw reader.error("\(end)_lat/\(end)_lon need city.projection (the city's south-west corner) or a road_network")
            }
        }
        return columns
    }
}
