import DispatchCore
import Foundation

/// A trip file that cannot be used: which file, which line and column, and why.
///
/// Invariant: `line` is 1-based (the header is line 1); `column` is the header name with its 1-based
/// index, or nil for a whole-line problem.
public struct TripFileError: Error, CustomStringConvertible, Equatable, Sendable {
    public var file: String
    public var line: Int
    public var column: String?
    public var reason: String

    /// `file:line: column 'NAME' (i): reason`.
    public var description: String { "\(file):\(line): " + (column.map { "column \($0): " } ?? "") + reason }
}

/// Reads a trip CSV into a `TripTable` through the scenario's column mapping (`demand.trips.columns`).
///
/// The file is comma-separated with a header row; fields may be quoted (RFC 4180, `""` for a quote, no line
/// breaks inside quotes); CRLF line ends, a UTF-8 byte-order mark and blank lines are accepted; unmapped
/// columns are ignored, so a NYC TLC or Chicago export loads as it is. Bad rows never trap: every
/// problem is a `TripFileError` naming the file, line, column and reason.
///
/// Invariant: a table it returns satisfies `TripTable`'s invariants for the city it was given.
struct TripFileReader {
    let columns: Scenario.TripColumns
    let zoneBase: Int
    let city: Scenario.City
    let outsideCity: Scenario.OutsideCity

    /// A mapped column: its key in `demand.trips.columns`, its header name and its index in a row.
    private struct Column {
        var key: String, name: String, index: Int
        var label: String { "'\(name)' (\(index + 1))" }
    }

    /// One end of a trip as the file gives it.
    private enum PlaceColumns {
        case metres(Column, Column), degrees(Column, Column), zone(Column)
    }

    /// Reads the file at `path`.
    /// - Throws: `TripFileError`.
    func read(path: String) throws(TripFileError) -> TripTable {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TripFileError(file: path, line: 0, column: nil, reason: "cannot read the file")
        }
        return try read(bytes: [UInt8](data), file: path)
    }

    /// Reads a file's bytes; `file` labels every error.
    func read(bytes: [UInt8], file: String) throws(TripFileError) -> TripTable {
        var lines = CSVLines(bytes: bytes)
        guard let header = try lines.next(file: file) else {
            throw TripFileError(file: file, line: 1, column: nil, reason: "empty file: expected a header row")
        }
        let names = header.fields.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces) }
        func column(_ key: String, _ name: String?) throws(TripFileError) -> Column? {
            guard let name else { return nil }
            guard let index = names.firstIndex(of: name) else {
                throw TripFileError(file: file, line: 1, column: nil, reason: "demand.trips.columns.\(key) names the column "
                    + "'\(name)', which the header does not have (header: \(names.joined(separator: ", ")))")
            }
            return Column(key: key, name: name, index: index)
        }
        func place(_ end: String, x: String?, y: String?, lat: String?, lon: String?, zone: String?) throws(TripFileError) -> PlaceColumns {
            if let x = try column("\(end)_x_m", x), let y = try column("\(end)_y_m", y) { return .metres(x, y) }
            if let lat = try column("\(end)_lat", lat), let lon = try column("\(end)_lon", lon) { return .degrees(lat, lon) }
            return .zone(try column("\(end)_zone", zone)!)  // the scenario reader checked one form is given
        }
        let c = columns
        let time = try column("pickup_time", c.pickupTime)!
        let origin = try place("origin", x: c.originX, y: c.originY, lat: c.originLat, lon: c.originLon, zone: c.originZone)
        let destination = try place("destination", x: c.destinationX, y: c.destinationY, lat: c.destinationLat,
                                    lon: c.destinationLon, zone: c.destinationZone)
        let passengers = try column("passengers", c.passengers)
        let geometry = try? city.geometry()
        let projection = city.geographic?.plane
        // GeoJSON zones are named by the IDs of their file (TLC's LocationID), not by number.
        let namedZones = city.zone.polygons.map { Dictionary($0.ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }) }
        let plane = city.rectangleOrigin

        var times: [Double] = [], origins: [TracePlace] = [], destinations: [TracePlace] = [], rowLines: [Int32] = []
        var rows = 0, dropped = 0, riders = 0
        while let row = try lines.next(file: file) {
            rows += 1
            guard row.fields.count >= names.count else {
                throw TripFileError(file: file, line: row.line, column: nil,
                                    reason: "\(row.fields.count) fields, the header has \(names.count)")
            }
            func error(_ column: Column, _ reason: String) -> TripFileError {
                TripFileError(file: file, line: row.line, column: column.label, reason: reason)
            }
            func text(_ column: Column) -> String {
                String(decoding: row.fields[column.index], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            func number(_ column: Column) throws(TripFileError) -> Double {
                guard let value = Double(text(column)), value.isFinite else {
                    throw error(column, "expected a number, got '\(text(column))'")
                }
                return value
            }
            /// The place, or nil when it is not in the city (after `outside_city: error` has thrown).
            func read(_ columns: PlaceColumns) throws(TripFileError) -> TracePlace? {
                let point: Position, at: Column
                switch columns {
                case .zone(let column):
                    if let namedZones {  // GeoJSON zones: the file's zone IDs
                        guard let zone = namedZones[text(column)] else {
                            if outsideCity == .drop { return nil }
                            throw error(column, "zone ID '\(text(column))' is not a zone of the city's GeoJSON file "
                                        + "(\(namedZones.count) zones); outside_city: drop skips such rows")
                        }
                        return .zone(Int32(zone))
                    }
                    guard let id = Int(text(column)) else { throw error(column, "expected an integer zone ID, got '\(text(column))'") }
                    let count = geometry?.zoneCount ?? 0
                    guard id - zoneBase >= 0, id - zoneBase < count else {
                        if outsideCity == .drop { return nil }
                        throw error(column, "zone ID \(id) is not a zone of the city (IDs \(zoneBase)–\(count - 1 + zoneBase) "
                                    + "with zone_base \(zoneBase)); outside_city: drop skips such rows")
                    }
                    return .zone(Int32(id - zoneBase))
                case .metres(let x, let y):
                    point = Position(x: try number(x) + plane.x, y: try number(y) + plane.y)
                    at = x
                case .degrees(let lat, let lon):
                    let latitude = try number(lat), longitude = try number(lon)
                    guard abs(latitude) <= 90 else { throw error(lat, "expected a latitude in [-90, 90], got \(latitude)") }
                    guard abs(longitude) <= 180 else { throw error(lon, "expected a longitude in [-180, 180], got \(longitude)") }
                    let p = projection!.position(latitude: latitude, longitude: longitude)  // checked by the scenario reader
                    point = Position(x: p.x + plane.x, y: p.y + plane.y)
                    at = lat
                }
                guard geometry?.contains(point) == true else {
                    if outsideCity == .drop { return nil }
                    throw error(at, "the point (\(Int(point.x)), \(Int(point.y))) m lies outside every zone of the city; "
                                + "outside_city: drop skips such rows")
                }
                return .point(point)
            }
            guard let seconds = TraceTime.seconds(row.fields[time.index]) else {
                throw error(time, "expected a date-time (YYYY-MM-DD HH:MM:SS, ISO 8601) or seconds, got '\(text(time))'")
            }
            var party = 1
            if let passengers, !text(passengers).isEmpty {
                guard let value = Double(text(passengers)), value >= 0, value == value.rounded(), value < 1_000 else {
                    throw error(passengers, "expected a whole number of passengers >= 0, got '\(text(passengers))'")
                }
                party = Int(value)
            }
            guard let from = try read(origin), let to = try read(destination) else {
                dropped += 1
                continue
            }
            times.append(seconds)
            origins.append(from)
            destinations.append(to)
            rowLines.append(Int32(clamping: row.line))
            riders += party
        }
        let mapping = "\(columns)|\(zoneBase)|\(outsideCity)|\(city.geographic.map { "\($0.southWest)" } ?? "")"
        return TripTable(file: file, times: times, origins: origins, destinations: destinations, lines: rowLines, rows: rows,
                         droppedOutsideCity: dropped, passengers: riders,
                         contentHash: Self.fnv1a(bytes, Array(mapping.utf8)))
    }

    /// FNV-1a 64 of the concatenated byte arrays, 16 hex digits.
    static func fnv1a(_ parts: [UInt8]...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
