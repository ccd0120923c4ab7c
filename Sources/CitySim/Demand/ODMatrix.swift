import Foundation

/// A demand model fitted from a trip trace (`citysim fit-demand`, `ODMatrix.fit`): arrival rates by hour of
/// the day and, per hour, how trips split over (origin zone, destination zone) pairs. The file form is
/// JSON (`demand.od_matrix`):
///
/// ```json
/// { "format": "citysim-od-matrix/1", "zones": 49, "days": 3, "trips": 5210, "min_hour_trips": 10,
///   "rate_per_hour": [40.3, 21.0, …],                       // 24 numbers: trips in that hour / days
///   "all_day": [[0, 12, 31], [3, 3, 9], …],                 // [origin zone, destination zone, trips], all hours
///   "hours": [ { "hour": 0, "trips": 121, "matrix": "hour", "pairs": [[0, 12, 2], …] }, … ] }
/// ```
///
/// Zones are 0-based indices: by default the city's (dispatch) zone indices. A matrix fitted on demand zones
/// of their own (`fit-demand --zones`) also has `"zone_ids": ["1", "2", …]`: zone `i` is the GeoJSON zone
/// with ID `zone_ids[i]`, and a scenario names that file in `demand.od_matrix.zones` (`FittedDemand`), so
/// the demand keeps its zoning whatever the dispatch zones are. An hour with fewer than `min_hour_trips` trips in the
/// trace has `"matrix": "all-day"` and no pairs: its trips split like the whole day's, since a handful of
/// trips (or none) is no matrix. Pair weights are trip counts; probabilities are count / hour's total.
///
/// Invariants: `ratePerHour.count == 24`, `hourPairs.count == 24`; every pair's zones are in
/// `0 ..< zones` and its count > 0; `allDay` is non-empty when any rate is > 0; `zoneIDs`, when present,
/// holds `zones` distinct IDs.
public struct ODMatrix: Sendable, Equatable, Codable {
    /// One cell of a matrix: trips from `origin` zone to `destination` zone, written `[origin, destination, trips]`.
    /// Invariant (of a model `read` returns): zones in `0 ..< zones`, `trips` > 0.
    public struct Pair: Sendable, Equatable, Codable {
        public var origin: Int, destination: Int, trips: Int
        public init(origin: Int, destination: Int, trips: Int) {
            self.origin = origin
            self.destination = destination
            self.trips = trips
        }
        public init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            self.init(origin: try c.decode(Int.self), destination: try c.decode(Int.self), trips: try c.decode(Int.self))
        }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(origin)
            try c.encode(destination)
            try c.encode(trips)
        }
    }

    /// One hour of the day: its trips and, unless it falls back to the all-day matrix, its own pairs.
    /// Invariant: `matrix` is `hour` (pairs sum to `trips`) or `all-day` (`pairs` empty).
    public struct Hour: Sendable, Equatable, Codable {
        public var hour: Int
        public var trips: Int
        /// `hour` (its own pairs) or `all-day` (fewer than `min_hour_trips` trips).
        public var matrix: String
        public var pairs: [Pair]
    }

    public var format = "citysim-od-matrix/1"
    /// How it was fitted, for people.
    public var method: String
    /// The trace it was fitted from.
    public var source: String
    /// The zone count: the city's, or the demand zones' (`zoneIDs`).
    public var zones: Int
    /// `zone_ids` — the GeoJSON IDs of the demand zones the matrix was fitted on, by zone index; nil (no key)
    /// when its zones are the city's dispatch zones.
    public var zoneIDs: [String]? = nil
    /// Calendar days the trace spans (first trip's day to last trip's day).
    public var days: Int
    /// Trips fitted.
    public var trips: Int
    public var minHourTrips: Int
    /// Requests per hour in each hour of the day.
    public var ratePerHour: [Double]
    public var allDay: [Pair]
    public var hours: [Hour]

    enum CodingKeys: String, CodingKey {
        case format, method, source, zones, zoneIDs = "zone_ids", days, trips, minHourTrips = "min_hour_trips", ratePerHour = "rate_per_hour"
        case allDay = "all_day", hours
    }

    /// The pairs trips of hour `hour` are drawn from.
    public func pairs(atHour hour: Int) -> [Pair] {
        let h = hours[hour % 24]
        return h.matrix == "hour" ? h.pairs : allDay
    }

    /// Probability of (origin, destination) in hour `hour`.
    public func probability(origin: Int, destination: Int, hour: Int) -> Double {
        let pairs = pairs(atHour: hour)
        let total = pairs.reduce(0) { $0 + $1.trips }
        let count = pairs.first { $0.origin == origin && $0.destination == destination }?.trips ?? 0
        return total > 0 ? Double(count) / Double(total) : 0
    }

    // MARK: - File

    /// Reads and checks a file whose zones are the city's `zones` dispatch zones.
    /// - Throws: a message naming what is wrong (the caller adds the file and key).
    public static func read(path: String, zones: Int) throws -> ODMatrix {
        let model = try read(path: path)
        if model.zoneIDs != nil {
            throw ODMatrixError("\(path): fitted on demand zones of its own (zone_ids); name their GeoJSON file in od_matrix.zones")
        }
        guard model.zones == zones else {
            throw ODMatrixError("\(path): fitted for \(model.zones) zones, the city has \(zones)")
        }
        return model
    }

    /// Reads a file and checks it against its own zone count (`zones`, `zone_ids`).
    /// - Throws: a message naming what is wrong (the caller adds the file and key).
    public static func read(path: String) throws -> ODMatrix {
        guard let data = FileManager.default.contents(atPath: path) else { throw ODMatrixError("cannot read \(path)") }
        let model: ODMatrix
        do { model = try JSONDecoder().decode(ODMatrix.self, from: data) } catch {
            throw ODMatrixError("\(path): not an OD-matrix file (\(error))")
        }
        guard model.format == "citysim-od-matrix/1" else { throw ODMatrixError("\(path): unknown format '\(model.format)'") }
        let zones = model.zones
        if let ids = model.zoneIDs, ids.count != zones || Set(ids).count != ids.count {
            throw ODMatrixError("\(path): zone_ids must hold \(zones) distinct IDs (zones), got \(ids.count) with \(Set(ids).count) distinct")
        }
        guard model.ratePerHour.count == 24, model.ratePerHour.allSatisfy({ $0.isFinite && $0 >= 0 }), model.hours.count == 24 else {
            throw ODMatrixError("\(path): expected 24 rates >= 0 and 24 hours")
        }
        for pair in model.allDay + model.hours.flatMap(\.pairs) {
            guard (0..<zones).contains(pair.origin), (0..<zones).contains(pair.destination), pair.trips > 0 else {
                throw ODMatrixError("\(path): pair [\(pair.origin), \(pair.destination), \(pair.trips)] is not zones in 0..<\(zones) with trips > 0")
            }
        }
        for h in 0..<24 where model.ratePerHour[h] > 0 && model.pairs(atHour: h).isEmpty {
            throw ODMatrixError("\(path): hour \(h) has a rate but no pairs")
        }
        return model
    }

    /// The model as compact JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// Why an OD-matrix file or a fit cannot be used. Invariant: `description` names the file or option at fault.
public struct ODMatrixError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
