import Foundation

extension GTFSFeed {
    /// One `stop_times.txt` row as read, before untimed stops are filled in.
    private struct Call {
        var line: Int
        var tripID: String
        var stopID: String
        var sequence: Int
        var arrival: Double?
        var departure: Double?
        /// `shape_dist_traveled`, when the column is there and the row has a value.
        var distance: Double?
    }

    /// Reads `stop_times.txt` and times every stop.
    ///
    /// GTFS lets a trip leave the times of stops between timepoints empty. A row with only one of
    /// arrival and departure takes it for both. An untimed stop gets the time its share of the way
    /// between the timed stops before and after it gives: the way is measured by `shape_dist_traveled`
    /// when every stop of that stretch has one, else by the straight-line distance between the stops
    /// (equirectangular, along the stop sequence), and shared evenly when the stops are all at one place.
    /// - Throws: `GTFSError` at the row: unknown trip or stop, a bad time or sequence, departure before
    ///   arrival, a trip's first or last stop without a time, or a sequence number used twice in a trip.
    /// - Complexity: O(n log n) in the rows.
    static func readStopTimes(_ table: CSVTable, trips: Set<String>, stops: [Stop]) throws(GTFSError) -> [StopTime] {
        let trip = try table.column("trip_id"), arrival = try table.column("arrival_time")
        let departure = try table.column("departure_time"), stop = try table.column("stop_id")
        let sequence = try table.column("stop_sequence"), travelled = table.optionalColumn("shape_dist_traveled")
        let stopsByID = Dictionary(stops.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var byTrip: [String: [Call]] = [:]
        var tripOrder: [String] = []
        for row in table.rows {
            let field = FieldReader(table: table, line: row.line, fields: row.fields)
            let tripID = try field.text(trip, "trip_id"), stopID = try field.text(stop, "stop_id")
            guard trips.contains(tripID) else { throw field.error("trip_id", "unknown trip_id '\(tripID)' (not in trips.txt)") }
            guard stopsByID[stopID] != nil else { throw field.error("stop_id", "unknown stop_id '\(stopID)' (not in stops.txt)") }
            var arrive = try field.optionalTime(arrival, "arrival_time"), depart = try field.optionalTime(departure, "departure_time")
            if arrive == nil { arrive = depart }
            if depart == nil { depart = arrive }
            if let arrive, let depart, depart < arrive { throw field.error("departure_time", "departure before arrival") }
            guard let order = Int(row.fields[sequence]), order >= 0 else {
                throw field.error("stop_sequence", "expected a non-negative integer, got '\(row.fields[sequence])'")
            }
            var distance: Double?
            if let travelled, !row.fields[travelled].trimming(" ").isEmpty {
                distance = try field.number(travelled, "shape_dist_traveled", 0...Double.greatestFiniteMagnitude)
            }
            if byTrip[tripID] == nil { tripOrder.append(tripID) }
            byTrip[tripID, default: []].append(Call(line: row.line, tripID: tripID, stopID: stopID, sequence: order,
                                                    arrival: arrive, departure: depart, distance: distance))
        }
        var times: [StopTime] = []
        for tripID in tripOrder {
            let calls = try timed(byTrip[tripID]!.sorted { $0.sequence < $1.sequence }, table: table, stops: stopsByID)
            times += calls.map {
                StopTime(tripID: $0.tripID, arrival: $0.arrival!, departure: $0.departure!, stopID: $0.stopID, sequence: $0.sequence)
            }
        }
        return times
    }

    /// The calls of one trip, in sequence order, with the untimed ones interpolated.
    private static func timed(_ calls: [Call], table: CSVTable, stops: [String: Stop]) throws(GTFSError) -> [Call] {
        func error(_ call: Call, _ field: String, _ reason: String) -> GTFSError {
            GTFSError(file: table.file, line: call.line, field: field, reason: reason)
        }
        for (a, b) in zip(calls, calls.dropFirst()) where a.sequence == b.sequence {
            throw error(b, "stop_sequence", "stop_sequence \(b.sequence) used twice in trip '\(b.tripID)'")
        }
        guard let first = calls.first, let last = calls.last else { return calls }
        guard first.arrival != nil else {
            throw error(first, "arrival_time", "the first stop of trip '\(first.tripID)' needs a time")
        }
        guard last.arrival != nil else {
            throw error(last, "arrival_time", "the last stop of trip '\(last.tripID)' needs a time")
        }
        var result = calls
        var previous = 0
        for index in 1..<calls.count where calls[index].arrival != nil {
            if index - previous > 1 { interpolate(&result, from: previous, to: index, stops: stops) }
            previous = index
        }
        return result
    }

    /// Times the untimed calls strictly between `from` and `to` (both timed) by their share of the way.
    private static func interpolate(_ calls: inout [Call], from: Int, to: Int, stops: [String: Stop]) {
        let stretch = from...to
        var along: [Double]
        if stretch.allSatisfy({ calls[$0].distance != nil }) {
            along = stretch.map { calls[$0].distance! - calls[from].distance! }
        } else {
            along = [0]
            for index in (from + 1)...to {
                along.append(along.last! + straightLine(stops[calls[index - 1].stopID]!, stops[calls[index].stopID]!))
            }
        }
        if !(along.last! > 0) || zip(along, along.dropFirst()).contains(where: { $0 > $1 }) {
            along = stretch.map { Double($0 - from) }   // no usable distances: evenly
        }
        let start = calls[from].departure!, end = calls[to].arrival!
        for index in (from + 1)..<to {
            let time = start + (end - start) * along[index - from] / along.last!
            calls[index].arrival = time
            calls[index].departure = time
        }
    }

    /// Metres between two stops (equirectangular at their mean latitude; exact enough between neighbours).
    private static func straightLine(_ a: Stop, _ b: Stop) -> Double {
        let latitude = (a.latitude + b.latitude) / 2 * .pi / 180
        let x = (b.longitude - a.longitude) * 111_320 * cos(latitude), y = (b.latitude - a.latitude) * 110_574
        return (x * x + y * y).squareRoot()
    }
}

extension FieldReader {
    /// A time, or nil for an empty field.
    func optionalTime(_ column: Int, _ name: String) throws(GTFSError) -> Double? {
        fields[column].trimming(" ").isEmpty ? nil : try time(column, name)
    }
}
