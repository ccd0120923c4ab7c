import DispatchCore
import Foundation
import RoadNetwork

/// Writes a run's files: `summary.json`, `rides.csv` (one row per request),
/// `drivers.csv` (one row per driver) and `report.html`, or the summary alone.
public enum ResultWriter {
    /// Which files a run writes.
    public enum Outputs: String, CaseIterable, Sendable {
        /// summary.json, rides.csv, drivers.csv and report.html.
        case all
        /// summary.json only: for runs that need only the figures (replications, scripted sweeps).
        case summary
    }

    /// The summary as JSON with sorted keys and snake_case names (deterministic).
    public static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(value)
    }

    /// `json(summary)`'s bytes, made by `PrettyJSON`; by `JSONEncoder` itself for what `PrettyJSON` leaves to it.
    public static func summaryJSON(_ summary: RunSummary) throws -> Data {
        if let data = try? PrettyJSON.data(summary) { return data }
        return try json(summary)
    }

    /// Writes the run's files into `directory` (created if needed); with `ridesWritten`, all but
    /// `rides.csv`, which a ``RidesCSVFile`` wrote during the run.
    public static func write(_ result: RunResult, to directory: URL, outputs: Outputs = .all, ridesWritten: Bool = false) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard outputs == .all else {
            try summaryJSON(result.summary).write(to: directory.appendingPathComponent("summary.json"))
            return
        }
        // The summary's JSON and drivers.csv are made on another core while this thread makes the report page:
        // after megacity's loop the JSON (35 ms) and the report (63 ms) came one after the other, on the run's
        // critical path. (The report stays on this thread: made on a new one, its strings grew a malloc arena of
        // their own, +12 MB of peak RSS on city-scale.)
        let aside = Aside { (try summaryJSON(result.summary), Data(driversCSVBytes(result))) }
        let report = Data(ReportPage.html(for: result).utf8)
        let (summary, drivers) = try aside.value()
        try summary.write(to: directory.appendingPathComponent("summary.json"))
        if !ridesWritten { try writeRidesCSV(result.rides, roads: result.roads, into: directory) }
        try drivers.write(to: directory.appendingPathComponent("drivers.csv"))
        try report.write(to: directory.appendingPathComponent("report.html"))
    }

    /// Writes `directory`/rides.csv after the run, the way a ``RidesCSVFile`` writes it during one: in chunks of
    /// about 1 MB, so the whole file is never held in memory twice, and complete or not at all.
    static func writeRidesCSV(_ rides: RunResult.RideRows, roads: RoadGraph?, into directory: URL) throws {
        let file = RidesCSVFile(into: directory)
        try file.start(roads: roads)
        do {
            try file.write(rides, rides.indices)
        } catch {
            try? file.finish(complete: false)
            throw error
        }
        try file.finish(complete: true)
    }

    /// The bytes of `rides.csv` gathered before they are written.
    static let ridesChunkBytes = 1 << 20

    /// Appends the rows `batch` of `rides`, writing the chunk to `handle` whenever it holds `ridesChunkBytes`.
    static func appendRows(_ rides: RunResult.RideRows, _ batch: Range<Int>, _ projection: LocalProjection?,
                           to chunk: inout CSVBytes, flushingTo handle: FileHandle) throws {
        for id in batch {
            appendRow(id, rides.records[id], projection, to: &chunk)
            if chunk.count >= ridesChunkBytes { try chunk.flush(to: handle) }
        }
    }

    /// A CSV number: integers as such, others with three decimals ("%.3f"), without
    /// Foundation's `String(format:)`, which cost seconds on a 500,000-row file.
    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        if value == value.rounded() { return String(Int(value)) }
        let thousandths = Int((abs(value) * 1000).rounded())
        let fraction = thousandths % 1000
        let digits = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : String(fraction)
        return (value < 0 && thousandths > 0 ? "-" : "") + String(thousandths / 1000) + "." + digits
    }

    /// One row per request: identity, places, times, outcome, offers and fare.
    public static func ridesCSV(_ result: RunResult) -> String { String(decoding: ridesCSVBytes(result), as: UTF8.self) }

    static func ridesCSVBytes(_ result: RunResult) -> [UInt8] {
        var out = CSVBytes(capacity: 200 + result.rides.count * 120)
        let projection = result.roads?.projection
        out.text(ridesCSVHeader(projected: projection != nil))
        for (id, record) in result.rides.records.enumerated() { appendRow(id, record, projection, to: &out) }
        return out.bytes
    }

    static let ridesCSVColumns = "id,customer,kind,outcome,requested_at,meeting_time,origin_x,origin_y,destination_x,destination_y,origin_zone,accepted_at,pickup_at,dropoff_at,wait_s,driver,offers,declines,timeouts,fare"

    /// The header of `rides.csv`; a city with a projection (a road city) adds the places in degrees (WGS 84).
    static func ridesCSVHeader(projected: Bool) -> String {
        ridesCSVColumns + (projected ? ",origin_lat,origin_lon,destination_lat,destination_lon\n" : "\n")
    }

    /// One request's row of `rides.csv`, written from its record as `RunResult.RideRow` presents it (the
    /// row's fields, in its order); with a projection, its origin and destination in degrees at the end.
    /// Read straight from the record: making the `RideRow` (with its two `String`s) first was a fifth of
    /// the rides writer's instructions (callgrind, grid city), which share the second core with the
    /// customer feed while the loop runs.
    private static func appendRow(_ id: Int, _ r: RideRecord, _ projection: LocalProjection?, to out: inout CSVBytes) {
        out.int(id); out.comma(); out.int(r.customer.rawValue); out.comma()
        out.ascii(r.kind); out.comma(); out.ascii(r.outcome.csvText); out.comma()
        out.number(r.requestedAt); out.comma(); out.number(r.meetingTime); out.comma()
        out.number(r.origin.x); out.comma(); out.number(r.origin.y); out.comma()
        out.number(r.destination.x); out.comma(); out.number(r.destination.y); out.comma()
        out.int(r.originZone); out.comma()
        out.number(r.acceptedAt); out.comma(); out.number(r.pickupAt); out.comma()
        out.number(r.dropoffAt); out.comma(); out.number(r.wait); out.comma()
        if let driver = r.driver { out.int(driver.rawValue) }
        out.comma(); out.int(r.offers); out.comma(); out.int(r.declines); out.comma(); out.int(r.timeouts); out.comma()
        out.number(r.fare)
        if let projection {
            let origin = projection.unproject(r.origin)
            let destination = projection.unproject(r.destination)
            out.comma(); out.degrees(origin.latitude); out.comma(); out.degrees(origin.longitude)
            out.comma(); out.degrees(destination.latitude); out.comma(); out.degrees(destination.longitude)
        }
        out.newline()
    }

    /// One row per driver: rides, earnings and hours.
    public static func driversCSV(_ result: RunResult) -> String { String(decoding: driversCSVBytes(result), as: UTF8.self) }

    /// The bytes of `drivers.csv`, built as `rides.csv`'s are (`CSVBytes`): a `String` interpolated per row took
    /// 69 ms for megacity's 50,000 drivers, on the run's critical path after the loop.
    static func driversCSVBytes(_ result: RunResult) -> [UInt8] {
        var out = CSVBytes(capacity: 64 + result.drivers.count * 48)
        out.text("driver,rides,earnings,shift_hours,busy_hours,queue_wait_hours\n")
        for d in result.drivers {
            out.int(d.id); out.comma(); out.int(d.rides); out.comma()
            out.number(d.earnings); out.comma(); out.number(d.shiftHours); out.comma()
            out.number(d.busyHours); out.comma(); out.number(d.queueWaitHours)
            out.newline()
        }
        return out.bytes
    }
}
