import Foundation
import DispatchCore

extension ODMatrix {
    /// How `fit` works, written into the file.
    static let fitMethod = "rate_per_hour[h] = trips starting in hour h of any day / days spanned (first trip's day "
        + "to last trip's day); pairs = trips per (origin zone, destination zone) in hour h (points mapped to their "
        + "zone); an hour with fewer than min_hour_trips trips uses the all-day pairs"

    /// Fits hourly rates and hourly OD matrices from a trace (every row of the table, all days).
    ///
    /// Rates: trips whose pickup falls in hour h (of its own day) divided by the number of calendar days
    /// the trace spans, so a three-day trace gives requests per hour of an average day. Matrices: per
    /// hour, trip counts per (origin zone, destination zone); a point's zone is the city's zone holding
    /// it, a zone-ID trip's zone is its ID. An hour with fewer than `minHourTrips` trips falls back to the
    /// all-day matrix (`"matrix": "all-day"`).
    ///
    /// - Complexity: O(trips + zones²).
    public static func fit(_ trace: TripTable, geometry: CityGeometry, minHourTrips: Int = 10, source: String) -> ODMatrix {
        let zones = geometry.zoneCount
        func zone(_ place: TracePlace) -> Int {
            switch place {
            case .zone(let z): return Int(z)
            case .point(let p): return (try? geometry.zone(of: p))?.index ?? 0   // a table's points lie in zones
            }
        }
        var counts = Array(repeating: [Int: Int](), count: 24), allDay: [Int: Int] = [:], perHour = Array(repeating: 0, count: 24)
        for i in 0..<trace.count {
            let hour = Int((trace.times[i] - (trace.times[i] / 86_400).rounded(.down) * 86_400) / 3600) % 24
            let key = zone(trace.origins[i]) * zones + zone(trace.destinations[i])
            counts[hour][key, default: 0] += 1
            allDay[key, default: 0] += 1
            perHour[hour] += 1
        }
        let days: Int
        if let first = trace.times.min(), let last = trace.times.max() {
            days = Int((last / 86_400).rounded(.down) - (first / 86_400).rounded(.down)) + 1
        } else {
            days = 1
        }
        func pairs(_ cells: [Int: Int]) -> [Pair] {
            cells.sorted { $0.key < $1.key }.map { Pair(origin: $0.key / zones, destination: $0.key % zones, trips: $0.value) }
        }
        let hours = (0..<24).map { h in
            perHour[h] >= minHourTrips && perHour[h] > 0
                ? Hour(hour: h, trips: perHour[h], matrix: "hour", pairs: pairs(counts[h]))
                : Hour(hour: h, trips: perHour[h], matrix: "all-day", pairs: [])
        }
        return ODMatrix(method: fitMethod, source: source, zones: zones, days: days, trips: trace.count, minHourTrips: minHourTrips,
                        ratePerHour: perHour.map { Double($0) / Double(days) }, allDay: pairs(allDay), hours: hours)
    }
}

extension ODMatrix {
    /// Fits a trip file read with a scenario's `demand.trips` mapping (columns, `zone_base`, `outside_city`)
    /// onto its city: `citysim fit-demand`.
    ///
    /// - Parameters:
    ///   - path: the trip CSV.
    ///   - scenario: gives the city and the column mapping (its `demand.trips`).
    ///   - minHourTrips: hours with fewer trips use the all-day matrix.
    ///   - start: trace time of the first day to fit (a date-time or seconds); default: all rows.
    ///   - days: how many days from `start` to fit (with `start` only).
    ///   - zones: demand zones of their own (`fit-demand --zones`) in place of the city's: zone-ID columns
    ///     name their IDs, points map to the one holding them, and the model records their IDs (`zone_ids`).
    /// - Throws: `ODMatrixError` when the scenario has no mapping, the window is bad or holds no trip;
    ///   `TripFileError` for the file.
    public static func fit(path: String, scenario: Scenario, minHourTrips: Int, start: String? = nil, days: Int? = nil,
                           zones: Scenario.ZonePolygonsSpec? = nil) throws -> ODMatrix {
        guard let replay = scenario.demand.trips else {
            throw ODMatrixError("the scenario has no demand.trips: fit-demand reads the file with its demand.trips.columns")
        }
        var city = scenario.city
        if let zones { city.zone = Scenario.Zone(polygons: zones) }
        let reader = TripFileReader(columns: replay.columns, zoneBase: replay.zoneBase, city: city,
                                    outsideCity: replay.outsideCity)
        var trace = try reader.read(path: path)
        if let start {
            guard let from = TraceTime.seconds(start) else { throw ODMatrixError("--start: expected a date-time or seconds, got '\(start)'") }
            trace = trace.window(from: from, seconds: Double(days ?? 1) * 86_400)
        }
        guard trace.count > 0 else { throw ODMatrixError("\(path): no trips to fit") }
        var model = fit(trace, geometry: try city.geometry(), minHourTrips: minHourTrips,
                        source: URL(fileURLWithPath: path).lastPathComponent)
        model.zoneIDs = zones?.ids
        if let days, start != nil {
            model.days = days
            model.ratePerHour = model.hours.map { Double($0.trips) / Double(days) }
        }
        return model
    }
}
