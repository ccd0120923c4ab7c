import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
@testable import DispatchService

/// The planner tests' day: Friday 2025-03-14 in the fixture's 4 × 4 km city, the clock at 06:00 UTC
/// that day; home in the south-west, work (fixed, breaks allowed) and a lunch place in the north-east.
enum PlannerDay {
    static let date = "2025-03-14"
    static let midnight = Double(try! CivilDate(parsing: date).dayNumber) * 86_400

    /// A service whose clock reads `time` (`HH:MM`) on the test day.
    static func fixture(at time: String = "06:00", store: any DispatchStore = InMemoryDispatchStore(),
                        plannerStore: (any PlannerStore)? = nil) async throws -> ServiceFixture {
        try await ServiceFixture(store: store, clock: ManualClock(now: midnight + ClockTime.seconds(time)!),
                                 plannerStore: plannerStore)
    }

    static let work = #"""
        {"title":"Work","date":"2025-03-14","place":{"x":3000,"y":3000},"start":"09:00","end":"17:00","breaks_allowed":true}
        """#
    static let lunch = #"""
        {"title":"Lunch","date":"2025-03-14","place":{"x":3300,"y":3000},"window":{"start":"12:30","end":"14:30"},"duration_min":30}
        """#
    /// Home at (500, 500); walking up to 10 km; the own bike; nothing else but walking.
    static let cyclist = #"""
        {"home":{"x":500,"y":500},"owns_bike":true,"max_walk_m":10000,
         "disabled_means":["car","transit","bike-sharing","car-sharing","taxi"]}
        """#

    /// The instant `HH:MM` of the test day.
    static func at(_ time: String) -> Date { Date(timeIntervalSince1970: midnight + ClockTime.seconds(time)!) }
}

extension TestClientProtocol {
    /// Creates an appointment and returns it.
    func appointment(_ json: String, token: String) async throws -> PlannerAppointment {
        let response = try await call(.post, "/v1/planner/appointments", token: token, json: json)
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(PlannerAppointment.self)
    }

    /// The planned test day.
    func day(token: String, date: String = PlannerDay.date) async throws -> DayScheduleBody {
        let response = try await call(.get, "/v1/planner/days/\(date)", token: token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(DayScheduleBody.self)
    }
}

extension DayScheduleBody {
    /// Every sub-route of the day, in order.
    var legs: [Leg] { steps.compactMap(\.trip).flatMap(\.legs) }
}
