import DispatchCore
import Foundation
import TransitFeeds
import TripPlanner

extension Scenario.Planner {
    /// The planned day's public-transport network: the GTFS feed of `transit.gtfs` (a folder or a `.zip`,
    /// relative to the scenario file, read by `GTFSSource`) with the services running on `date`; nil
    /// without a `transit` section. The simulated day has no time zone: feed times count from its midnight.
    /// - Throws: `ScenarioError` at `planner.transit.gtfs` when the feed cannot be read or is invalid.
    func transitNetwork() throws(ScenarioError) -> TransitNetwork? {
        guard let transit else { return nil }
        let path = URL(fileURLWithPath: source.path).appendingPathComponent(transit.gtfs).path
        func failure(_ reason: String) -> ScenarioError {
            ScenarioError(file: source.file, keyPath: "planner.transit.gtfs", reason: reason)
        }
        do {
            let feed = try GTFSSource.feed(at: path)
            return try TransitNetwork(feed: feed, date: date,
                                      projection: GeoProjection(originLatitude: transit.originLat, originLongitude: transit.originLon),
                                      transferSeconds: transit.transferSeconds)
        } catch let error as GTFSSourceError {
            throw failure("\(error)")
        } catch {
            throw failure("\(error)")
        }
    }
}
