import Foundation

extension GTFSFeed {
    /// A `frequencies.txt` row: the trip's stop times are a template (times relative to its first
    /// departure) run from `start` every `headway` seconds while the departure is before `end`.
    public struct Frequency: Sendable, Equatable {
        public var tripID: String
        /// Seconds after the service day's noon minus 12 h, like stop times.
        public var start: Double
        public var end: Double
        public var headway: Double
        /// `exact_times` 1: the departures are exactly these. 0 (the default): the feed promises only the
        /// headway; the planner still runs the trips at `start`, `start + headway`, … — the same
        /// headway and mean wait, though the real vehicles may be shifted by up to one headway.
        public var exactTimes: Bool

        /// The first departures of the template's runs, in order.
        public var departures: [Double] { Array(stride(from: start, to: end, by: headway)) }
    }

    /// Reads `frequencies.txt`.
    /// - Throws: `GTFSError` at the row: unknown trip, bad times, end not after start, a headway not > 0,
    ///   `exact_times` other than empty, 0 or 1.
    static func readFrequencies(_ table: CSVTable, trips: Set<String>) throws(GTFSError) -> [Frequency] {
        let trip = try table.column("trip_id"), start = try table.column("start_time"), end = try table.column("end_time")
        let headway = try table.column("headway_secs"), exact = table.optionalColumn("exact_times")
        var frequencies: [Frequency] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let tripID = try field.text(trip, "trip_id")
            guard trips.contains(tripID) else { throw field.error("trip_id", "unknown trip_id '\(tripID)' (not in trips.txt)") }
            let from = try field.time(start, "start_time"), to = try field.time(end, "end_time")
            guard to > from else { throw field.error("end_time", "must be after start_time") }
            let every = try field.number(headway, "headway_secs", 0...86_400)
            guard every > 0 else { throw field.error("headway_secs", "must be more than 0") }
            var exactTimes = false
            if let exact {
                switch row.fields[exact].trimming(" ") {
                case "", "0": exactTimes = false
                case "1": exactTimes = true
                default: throw field.error("exact_times", "expected 0 or 1, got '\(row.fields[exact])'")
                }
            }
            frequencies.append(Frequency(tripID: tripID, start: from, end: to, headway: every, exactTimes: exactTimes))
        }
        return frequencies
    }

    /// Reads `agency_timezone` from `agency.txt`: one IANA zone for the feed (GTFS requires every agency
    /// of a feed to share it).
    /// - Throws: `GTFSError`: no agency row, a zone Foundation does not know, or agencies in different zones.
    static func readAgencyTimeZone(_ table: CSVTable) throws(GTFSError) -> String {
        let column = try table.column("agency_timezone")
        var zone: String?
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let name = try field.text(column, "agency_timezone").trimming(" ")
            guard TimeZone(identifier: name) != nil else {
                throw field.error("agency_timezone", "unknown time zone '\(name)' (expected an IANA name such as Europe/Rome)")
            }
            if let zone, zone != name { throw field.error("agency_timezone", "agencies of one feed must share a time zone ('\(zone)', '\(name)')") }
            zone = name
        }
        guard let zone else { throw GTFSError(file: table.file, line: 1, field: nil, reason: "no agency row") }
        return zone
    }
}
