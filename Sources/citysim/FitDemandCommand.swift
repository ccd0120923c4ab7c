import ArgumentParser
import CommandLineSupport
import CitySim
import Foundation

/// `citysim fit-demand TRIPS.csv --scenario S.yaml --out od.json`: fit hourly rates and hourly OD matrices
/// from a trip file, for a scenario's `demand.od_matrix`.
struct FitDemandCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-demand",
        abstract: "Fit hourly request rates and hourly zone-to-zone OD matrices from a trip CSV (for demand.od_matrix).",
        discussion: """
        The file is read with the scenario's demand.trips mapping (columns, zone_base, outside_city) onto its \
        city's zones. rate_per_hour[h] = trips in hour h / days spanned; each hour's OD matrix counts trips per \
        (origin zone, destination zone); hours with fewer than --min-hour-trips trips use the all-day matrix. \
        With --zones, the matrix is fitted on those GeoJSON zones instead of the city's (zone-ID columns name \
        their IDs, points map to the zone holding them) and records their IDs (zone_ids): a scenario then \
        names the file in demand.od_matrix.zones, whatever its dispatch zones.
        """)

    @Argument(help: "The trip CSV.")
    var trips: String

    @Option(help: "The scenario whose city and demand.trips column mapping to use.")
    var scenario: String

    @Option(help: "Where to write the fitted model (JSON).")
    var out: String

    @Option(help: "Hours with fewer trips than this use the all-day OD matrix.")
    var minHourTrips = 10

    @Option(help: "Fit only from this trace time on: a date-time (\"2024-01-15 00:00:00\") or seconds (default: every row).")
    var start: String?

    @Option(help: "With --start: how many days to fit.")
    var days = 1

    @Option(help: "Fit on these demand zones (a GeoJSON FeatureCollection) instead of the city's zones.")
    var zones: String?

    @Option(help: "With --zones: the feature property holding the zone ID (default: the feature's id).")
    var idProperty: String?

    @Option(help: "With --zones: the feature property holding the zone's name.")
    var nameProperty: String?

    func validate() throws {
        guard zones != nil || (idProperty == nil && nameProperty == nil) else {
            throw ValidationError("--id-property and --name-property apply only with --zones")
        }
        guard minHourTrips >= 0 else { throw ValidationError("--min-hour-trips must be at least 0") }
        guard days >= 1 else { throw ValidationError("--days must be at least 1") }
    }

    func run() throws {
        let loaded = try attempt(status: ExitStatus.badInput) { try Scenario.load(path: scenario) }
        let demandZones = try attempt(status: ExitStatus.badInput) { () throws -> Scenario.ZonePolygonsSpec? in
            guard let zones else { return nil }
            guard let projection = loaded.city.geographic else {
                throw ValidationError("--zones: GeoJSON zones are in latitude/longitude; \(scenario) has no road_network or city.projection")
            }
            return try Scenario.ZonePolygonsSpec.load(path: zones, idProperty: idProperty, nameProperty: nameProperty,
                                                      projection: projection, widthKm: loaded.city.widthKm, heightKm: loaded.city.heightKm)
        }
        let model = try attempt(status: ExitStatus.badInput) {
            try ODMatrix.fit(path: trips, scenario: loaded, minHourTrips: minHourTrips, start: start, days: start == nil ? nil : days,
                             zones: demandZones)
        }
        try attempt("writing \(out)", status: ExitStatus.failed) {
            let target = URL(fileURLWithPath: out)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try model.json().write(to: target)
        }
        let fallback = model.hours.filter { $0.matrix != "hour" }.map { String($0.hour) }
        print("\(model.trips) trips over \(model.days) day\(model.days == 1 ? "" : "s") on \(model.zones) \(zones == nil ? "" : "demand ")zones → \(out)")
        print("requests per hour: " + model.ratePerHour.map { String(format: "%.1f", $0) }.joined(separator: " "))
        print("OD pairs: \(model.allDay.count) all day; hours on the all-day matrix (< \(minHourTrips) trips): "
              + (fallback.isEmpty ? "none" : fallback.joined(separator: ", ")))
    }
}
