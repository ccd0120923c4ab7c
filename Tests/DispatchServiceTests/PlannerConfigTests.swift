import Foundation
import Testing
import TripPlanner
@testable import DispatchService

/// The service config's optional `planner:` block: the bundled config names a readable GTFS feed.
@Suite struct PlannerConfigTests {
    @Test func bundledConfigNamesAFeedTheServiceReadsOnce() throws {
        let config = try ServiceConfig.load(path: ServiceConfigTests.bundled)
        let settings = try #require(config.planner)
        #expect(settings.gtfs.hasSuffix("Scenarios/gtfs/service") && settings.transferS == 60)
        let transit = try PlannerTransit(settings: settings)
        let day = try CivilDate(parsing: "2025-03-14")
        let network = try transit.network(on: day, origin: day.origin(in: transit.timeZone))
        #expect(!network.stops.isEmpty)
    }

    @Test func aMissingFeedFailsAtStartNamingTheBlock() throws {
        let settings = PlannerSettings(gtfs: "/nonexistent/feed", origin: .init(lat: 45, lon: 7))
        #expect { try PlannerTransit(settings: settings) } throws: { "\($0)".contains("planner.gtfs") }
    }

    @Test func badOriginIsRefused() throws {
        var config = try ServiceConfig.load(path: ServiceConfigTests.bundled)
        config.planner?.origin.lat = 91
        #expect(throws: ConfigError.self) { try config.validate() }
    }
}
