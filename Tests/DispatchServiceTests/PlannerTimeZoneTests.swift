import CitySim
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
@testable import DispatchService

/// The bundled service config's feed serves its city, and planner times are in the user's time zone
/// (default: the feed's `agency_timezone`).
@Suite struct PlannerTimeZoneTests {
    /// The bundled config's transit.
    static func bundledTransit() throws -> PlannerTransit {
        try PlannerTransit(settings: try #require(try ServiceConfig.load(path: ServiceConfigTests.bundled).planner))
    }

    @Test("every stop of the bundled service feed lies inside the bundled service city")
    func bundledFeedStopsAreInsideTheServiceCity() throws {
        let config = try ServiceConfig.load(path: ServiceConfigTests.bundled)
        let city = try Scenario.load(path: config.scenario).city
        let transit = try Self.bundledTransit()
        let day = try CivilDate(parsing: "2025-03-14")
        let network = try transit.network(on: day, origin: day.origin(in: transit.timeZone))
        #expect(network.stops.count > 10 && network.connectionCount > 1_000)
        for stop in network.stops {
            #expect((0...city.widthKm * 1_000).contains(stop.position.x) && (0...city.heightKm * 1_000).contains(stop.position.y),
                    "\(stop.name) at \(stop.position)")
        }
    }

    /// Plans a 10:00–11:00 meeting across the fixture city (walk at most 300 m, transit on) with the bundled feed.
    func meetingDay(preferences extra: String = "") async throws -> (DayScheduleBody?, TestResponse) {
        let fixture = try await PlannerDay.fixture()
        let planner = PlannerService(store: InMemoryPlannerStore(), host: fixture.host, transit: try Self.bundledTransit())
        let app = Application(router: buildRouter(host: fixture.host, accounts: fixture.service.accounts, planner: planner))
        return try await app.test(.router) { client in
            let ana = try await client.customer("ana@example.com")
            let saved = try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: """
                {"home":{"x":500,"y":2000},"max_walk_m":300,"disabled_means":["bike","car","bike-sharing","car-sharing","taxi"]\(extra)}
                """)
            guard saved.status == .ok else { return (nil, saved) }
            _ = try await client.appointment(#"""
                {"title":"Meeting","date":"2025-03-14","place":{"x":3500,"y":2000},"start":"10:00","end":"11:00"}
                """#, token: ana.token)
            return (try await client.day(token: ana.token), saved)
        }
    }

    @Test("a service plan in the bundled city rides the bundled feed's transit")
    func servicePlansUseTheBundledTransit() async throws {
        let day = try #require(try await meetingDay().0)
        #expect(day.transitAvailable)
        #expect(day.legs.contains { $0.means == .transit }, "\(day.legs.map(\.means)) \(day.warnings.map(\.message))")
    }

    @Test("without a time_zone preference, HH:MM times are in the feed's agency_timezone (Europe/Rome, UTC+1 in March)")
    func defaultZoneIsTheAgencyZone() async throws {
        let day = try #require(try await meetingDay().0)
        let meeting = try #require(day.steps.first { $0.kind == "activity" && $0.title == "Meeting" })
        #expect(meeting.start == ISO8601DateFormatter().date(from: "2025-03-14T09:00:00Z"))
    }

    @Test("a user's time_zone preference places their HH:MM times in that zone (New York, UTC−4 after 9 March)")
    func userTimeZoneIsHonoured() async throws {
        let day = try #require(try await meetingDay(preferences: #","time_zone":"America/New_York""#).0)
        let meeting = try #require(day.steps.first { $0.kind == "activity" && $0.title == "Meeting" })
        #expect(meeting.start == ISO8601DateFormatter().date(from: "2025-03-14T14:00:00Z"))
    }

    @Test("an unknown time zone is refused naming time_zone")
    func unknownTimeZoneIsRefused() async throws {
        let (_, saved) = try await meetingDay(preferences: #","time_zone":"Mars/Olympus""#)
        #expect(saved.status == .unprocessableContent && saved.problem?.field == "time_zone", "\(saved.text)")
    }
}
