import Foundation

/// Writes a run's files: `summary.json`, `rides.csv` (one row per request),
/// `drivers.csv` (one row per driver) and `report.html`.
public enum ResultWriter {
    /// The summary as JSON with sorted keys and snake_case names (deterministic).
    public static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try encoder.encode(value)
    }

    /// Writes every file of the run into `directory` (created if needed).
    public static func write(_ result: RunResult, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try json(result.summary).write(to: directory.appendingPathComponent("summary.json"))
        try Data(ridesCSV(result).utf8).write(to: directory.appendingPathComponent("rides.csv"))
        try Data(driversCSV(result).utf8).write(to: directory.appendingPathComponent("drivers.csv"))
        try Data(ReportPage.html(for: result).utf8).write(to: directory.appendingPathComponent("report.html"))
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
    public static func ridesCSV(_ result: RunResult) -> String {
        var out = "id,customer,kind,outcome,requested_at,meeting_time,origin_x,origin_y,destination_x,destination_y,origin_zone,accepted_at,pickup_at,dropoff_at,wait_s,driver,offers,declines,timeouts,fare\n"
        out.reserveCapacity(result.rides.count * 120)
        for r in result.rides {
            let fields: [String] = [
                String(r.id), String(r.customer), r.kind, r.outcome, number(r.requestedAt), number(r.meetingTime),
                number(r.originX), number(r.originY), number(r.destinationX), number(r.destinationY), String(r.originZone),
                number(r.acceptedAt), number(r.pickupAt), number(r.dropoffAt), number(r.waitS),
                r.driver.map(String.init) ?? "", String(r.offers), String(r.declines), String(r.timeouts), number(r.fare),
            ]
            out += fields.joined(separator: ",")
            out += "\n"
        }
        return out
    }

    /// One row per driver: rides, earnings and hours.
    public static func driversCSV(_ result: RunResult) -> String {
        var out = "driver,rides,earnings,shift_hours,busy_hours,queue_wait_hours\n"
        for d in result.drivers {
            out += "\(d.id),\(d.rides),\(number(d.earnings)),\(number(d.shiftHours)),\(number(d.busyHours)),\(number(d.queueWaitHours))\n"
        }
        return out
    }
}
