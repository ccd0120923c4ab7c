import Foundation
import Synchronization
import TripPlanner

/// The trip planner's public transport: a GTFS feed read once at start, and the timetable of each
/// day built from it on first use (a few days are kept).
///
/// Invariant: `network(on:)` for a date is built from the same feed, projection and transfer time.
///
/// ```swift
/// let transit = try PlannerTransit(settings: config.planner!)
/// let network = try transit.network(on: try CivilDate(parsing: "2025-03-14"))
/// ```
final class PlannerTransit: Sendable {
    let feed: GTFSFeed
    let projection: GeoProjection
    let transferSeconds: Double
    private let days = Mutex<[CivilDate: TransitNetwork]>([:])
    /// Timetables kept before the cache starts over.
    static let keptDays = 8

    /// Reads the feed's files.
    /// - Throws: `ConfigError` naming the unreadable file or the feed's first error.
    init(settings: PlannerSettings) throws {
        let folder = URL(fileURLWithPath: settings.gtfs)
        var files: [String: String] = [:]
        for name in GTFSFeed.fileNames {
            let url = folder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ConfigError(message: "planner.gtfs: cannot read \(url.path)")
            }
            files[name] = text
        }
        do { feed = try GTFSFeed.read(files: files) } catch { throw ConfigError(message: "planner.gtfs: \(error)") }
        projection = GeoProjection(originLatitude: settings.origin.lat, originLongitude: settings.origin.lon)
        transferSeconds = settings.transferS ?? 60
    }

    /// The timetable of `date`.
    /// - Complexity: O(n log n) in the feed's stop times on first use of a date, O(1) after.
    func network(on date: CivilDate) throws -> TransitNetwork {
        if let network = days.withLock({ $0[date] }) { return network }
        let network = try TransitNetwork(feed: feed, date: date, projection: projection, transferSeconds: transferSeconds)
        days.withLock { days in
            if days.count >= Self.keptDays { days.removeAll() }
            days[date] = network
        }
        return network
    }
}
