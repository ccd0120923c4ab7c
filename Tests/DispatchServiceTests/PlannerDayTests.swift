import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
@testable import DispatchService

/// `/v1/planner/days/{date}`: the schedule computed on read, recomputed after every change of an
/// appointment or of the city's conditions, and primary choices.
@Suite struct PlannerDayTests {
    @Test func aFlexibleLunchIsPlacedInsideItsWindowAroundAFixedDay() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: PlannerDay.cyclist)
            let work = try await client.appointment(PlannerDay.work, token: ana.token)
            let lunch = try await client.appointment(PlannerDay.lunch, token: ana.token)
            let day = try await client.day(token: ana.token)

            let placement = try #require(day.placements.first { $0.appointmentId == lunch.id })
            #expect(placement.start >= PlannerDay.at("12:30") && placement.end <= PlannerDay.at("14:30"))
            #expect(placement.end.timeIntervalSince(placement.start) == 30 * 60)
            #expect(day.steps.contains { $0.kind == "activity" && $0.appointmentId == work.id && $0.start == PlannerDay.at("09:00") })
            for (earlier, later) in zip(day.steps, day.steps.dropFirst()) { #expect(earlier.end <= later.start) }
            let trips = day.steps.compactMap(\.trip)
            #expect(trips.count >= 2 && trips.allSatisfy { !$0.legs.isEmpty })
            #expect(day.legs.allSatisfy { $0.departure <= $0.arrival && $0.distanceM > 0 && $0.co2G >= 0 && $0.costEur >= 0 })
            #expect(day.warnings.isEmpty, "\(day.warnings.map(\.message))")
            #expect(day.occurrences.map(\.state) == [.scheduled, .scheduled])
        }
    }

    @Test func aChangedAppointmentShowsOnTheNextRead() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: PlannerDay.cyclist)
            _ = try await client.appointment(PlannerDay.work, token: ana.token)
            let lunch = try await client.appointment(PlannerDay.lunch, token: ana.token)
            let later = PlannerDay.lunch.replacingOccurrences(of: #""start":"12:30""#, with: #""start":"13:45""#)
            try await client.call(.put, "/v1/planner/appointments/\(lunch.id)", token: ana.token, json: later)
            let placement = try #require(try await client.day(token: ana.token).placements.first)
            #expect(placement.start >= PlannerDay.at("13:45"))
            try await client.call(.post, "/v1/planner/appointments/\(lunch.id)/cancel", token: ana.token)
            #expect(try await client.day(token: ana.token).placements.isEmpty)
        }
    }

    @Test func rainSetByTheAdministratorRemovesBikeLegsOnTheNextRead() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let admin = try await client.admin()
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: PlannerDay.cyclist)
            _ = try await client.appointment(PlannerDay.work, token: ana.token)
            let dry = try await client.day(token: ana.token)
            #expect(dry.legs.contains { $0.means == .ownBike }, "\(dry.legs.map(\.means))")
            #expect(dry.conditions.rainHours.isEmpty)

            let set = try await client.call(.put, "/v1/admin/conditions/\(PlannerDay.date)", token: admin,
                                            json: #"{"rain_hours":[7,8,9,16,17,18],"strikes":[{}]}"#)
            #expect(set.status == .ok, "\(set.text)")
            let stored = try await client.call(.get, "/v1/admin/conditions/\(PlannerDay.date)", token: admin)
            #expect(try stored.decode(CityDayConditions.self).strikes.count == 1)
            let wet = try await client.day(token: ana.token)
            #expect(wet.conditions.rainHours == [7, 8, 9, 16, 17, 18])
            #expect(!wet.legs.contains { $0.means == .ownBike || $0.means == .bikeSharing }, "\(wet.legs.map(\.means))")
            #expect(wet.legs.contains { $0.means == .walk })
        }
    }

    @Test func choosingAPrimaryResolvesAnOverlap() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: PlannerDay.cyclist)
            let work = try await client.appointment(PlannerDay.work, token: ana.token)
            let dentist = try await client.appointment(#"""
                {"title":"Dentist","date":"2025-03-14","place":{"x":1000,"y":1000},"start":"10:00","end":"11:00"}
                """#, token: ana.token)
            let asked = try await client.day(token: ana.token)
            let overlap = try #require(asked.warnings.first { $0.kind == "overlap" })
            #expect(Set(overlap.appointmentIds) == [work.id, dentist.id] && overlap.message.contains("which is primary"))

            let chosen = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/primary", token: ana.token,
                                               json: #"{"appointment_id":\#(dentist.id)}"#)
            #expect(chosen.status == .ok, "\(chosen.text)")
            let day = try chosen.decode(DayScheduleBody.self)
            #expect(day.steps.contains { $0.kind == "activity" && $0.appointmentId == dentist.id })
            #expect(!day.steps.contains { $0.kind == "activity" && $0.appointmentId == work.id })
            #expect(day.occurrences.first { $0.appointmentId == work.id }?.state == .cancelled)
            #expect(!day.warnings.contains { $0.message.contains("which is primary") })
        }
    }

}

/// A strike needs public transport: a two-stop line across the fixture's city, every 10 minutes.
@Suite struct PlannerStrikeTests {
    /// Writes the feed: stop A at (500, 500), stop B at (3500, 3500), origin 45° N 7° E.
    static func shuttleFeed(in folder: TemporaryFolder) throws -> PlannerSettings {
        var trips = "route_id,service_id,trip_id,trip_headsign\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for minute in stride(from: 6 * 60, to: 22 * 60, by: 10) {
            let (h, m) = (minute / 60, minute % 60)
            let clock = String(format: "%02d:%02d:00", h, m), arrival = String(format: "%02d:%02d:00", h, m + 8)
            for (trip, from, to) in [("AB-\(minute)", "A", "B"), ("BA-\(minute)", "B", "A")] {
                trips += "S,DAILY,\(trip),\(to)\n"
                times += "\(trip),\(clock),\(clock),\(from),1\n\(trip),\(arrival),\(arrival),\(to),2\n"
            }
        }
        let files = [
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,South-West,45.0045218,7.0063520\nB,North-East,45.0316530,7.0444642\n",
            "routes.txt": "route_id,route_short_name,route_long_name,route_type\nS,S,Shuttle,3\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\n"
                + "DAILY,1,1,1,1,1,1,1,20250101,20261231\n",
            "trips.txt": trips, "stop_times.txt": times,
        ]
        for (name, text) in files { try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8) }
        return PlannerSettings(gtfs: folder.url.path, origin: .init(lat: 45, lon: 7))
    }

    @Test func aStrikeSetByTheAdministratorRemovesTransitLegsOnTheNextRead() async throws {
        let folder = try TemporaryFolder()
        let fixture = try await PlannerDay.fixture()
        let planner = PlannerService(store: InMemoryPlannerStore(), host: fixture.host,
                                     transit: try PlannerTransit(settings: try Self.shuttleFeed(in: folder)))
        let app = Application(router: buildRouter(host: fixture.host, accounts: fixture.service.accounts, planner: planner))
        try await app.test(.router) { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: #"""
                {"home":{"x":500,"y":500},"max_walk_m":300,"disabled_means":["bike","car","bike-sharing","car-sharing","taxi"]}
                """#)
            let meeting = try await client.appointment(#"""
                {"title":"Meeting","date":"2025-03-14","place":{"x":3500,"y":3500},"start":"10:00","end":"11:00"}
                """#, token: ana.token)
            let running = try await client.day(token: ana.token)
            #expect(running.transitAvailable)
            #expect(running.legs.contains { $0.means == .transit }, "\(running.legs.map(\.means)) \(running.warnings.map(\.message))")

            let strike = try await client.call(.put, "/v1/admin/conditions/\(PlannerDay.date)", token: try await client.admin(),
                                               json: #"{"strikes":[{}]}"#)  // all day
            #expect(strike.status == .ok)
            let struck = try await client.day(token: ana.token)
            #expect(!struck.legs.contains { $0.means == .transit })
            #expect(struck.warnings.contains { $0.kind == "unreachable" && $0.appointmentIds == [meeting.id] })
        }
    }
}
