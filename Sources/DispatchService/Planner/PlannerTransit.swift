import Foundation
import Synchronization
import TransitFeeds
import TripPlanner

/// The trip planner's public transport: a GTFS feed (a folder or a `.zip`) read once at start by the same
/// loader as `citysim run` and `plan-day`, and the timetable of each day built from it on first use (a
/// few are kept).
///
/// Invariant: `network(on:origin:)` for a date is built from the same feed, projection and transfer time,
/// with the feed's times moved from its agency's day origin (`agency_timezone`, UTC without `agency.txt`)
/// to the planner user's.
///
/// ```swift
/// let transit = try PlannerTransit(settings: config.planner!)
/// let day = try CivilDate(parsing: "2025-03-14")
/// let network = try transit.network(on: day, origin: day.origin(in: transit.timeZone))
/// ```
final class PlannerTransit: Sendable {
    let feed: GTFSFeed
    let projection: GeoProjection
    let transferSeconds: Double
    /// The feed's `agency_timezone`, or UTC when it has no `agency.txt`.
    let timeZone: TimeZone
    private let days = Mutex<[Key: TransitNetwork]>([:])
    /// Timetables kept before the cache starts over.
    static let keptDays = 8

    private struct Key: Hashable { var date: CivilDate; var origin: Double }

    /// Reads the feed.
    /// - Throws: `ConfigError` naming the folder or archive, and the file, line, field and reason of the feed's first error.
    init(settings: PlannerSettings) throws {
        do { feed = try GTFSSource.feed(at: settings.gtfs) } catch { throw ConfigError(message: "planner.gtfs: \(error)") }
        projection = GeoProjection(originLatitude: settings.origin.lat, originLongitude: settings.origin.lon)
        transferSeconds = settings.transferS ?? 60
        timeZone = feed.agencyTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
    }

    /// The timetable of `date` for a planner whose day counts from `origin` (seconds since 1970).
    /// - Complexity: O(n log n) in the day's connections on first use of a date, O(1) after.
    func network(on date: CivilDate, origin: Double) throws -> TransitNetwork {
        let key = Key(date: date, origin: origin)
        if let network = days.withLock({ $0[key] }) { return network }
        let network = try TransitNetwork(feed: feed, date: date, projection: projection, transferSeconds: transferSeconds,
                                         timeOffset: date.origin(in: timeZone) - origin)
        days.withLock { days in
            if days.count >= Self.keptDays { days.removeAll() }
            days[key] = network
        }
        return network
    }
}
