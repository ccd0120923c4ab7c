import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
@testable import DispatchService

/// `/v1/planner/appointments` and `/v1/planner/preferences`: the round trip, owner-only access,
/// validation problems that name the field, and durability in SQLite.
@Suite struct PlannerAppointmentTests {
    @Test func appointmentRoundTripsThroughCreateReadReplaceCancelDelete() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let created = try await client.appointment(PlannerDay.work, token: ana.token)
            #expect(created.title == "Work" && created.start == "09:00" && created.end == "17:00" && created.breaksAllowed == true)
            #expect(created.owner == ana.id && created.state == .unscheduled)

            let shown = try await client.call(.get, "/v1/planner/appointments/\(created.id)", token: ana.token)
            #expect(try shown.decode(PlannerAppointment.self).place.x == 3000)
            let onDay = try await client.call(.get, "/v1/planner/appointments?date=2025-03-14", token: ana.token)
            #expect(try onDay.decode(AppointmentList.self).appointments.map(\.id) == [created.id])
            let otherDay = try await client.call(.get, "/v1/planner/appointments?date=2025-03-15", token: ana.token)
            #expect(try otherDay.decode(AppointmentList.self).appointments.isEmpty)

            let replaced = try await client.call(.put, "/v1/planner/appointments/\(created.id)", token: ana.token, json: """
                {"title":"Gym","date":"2025-03-14","place":{"x":1000,"y":1000},"window":{"start":"18:00","end":"21:00"},
                 "duration_min":60,"recurrence":{"weekdays":["friday","monday"],"until":"2025-12-19"},"passengers":1,
                 "allowed_means":["walk","bike"],"forbidden_means":["taxi"],"template":"sport"}
                """)
            #expect(replaced.status == .ok, "\(replaced.text)")
            let gym = try replaced.decode(PlannerAppointment.self)
            #expect(gym.title == "Gym" && gym.start == nil && gym.window?.start == "18:00" && gym.durationMin == 60)
            #expect(gym.recurrence?.weekdays == [.monday, .friday] && gym.passengers == 1 && gym.template == "sport")
            #expect(gym.allowedMeans == [.walk, .ownBike] && gym.forbiddenMeans == [.taxi])
            let monday = try await client.call(.get, "/v1/planner/appointments?date=2025-03-17", token: ana.token)
            #expect(try monday.decode(AppointmentList.self).appointments.map(\.id) == [created.id])  // recurrence expanded

            let cancelled = try await client.call(.post, "/v1/planner/appointments/\(created.id)/cancel", token: ana.token)
            #expect(try cancelled.decode(PlannerAppointment.self).state == .cancelled)
            let again = try await client.call(.post, "/v1/planner/appointments/\(created.id)/cancel", token: ana.token)
            #expect(again.status == .conflict && again.problem?.title == "illegal-appointment-state")

            #expect(try await client.call(.delete, "/v1/planner/appointments/\(created.id)", token: ana.token).status == .noContent)
            let gone = try await client.call(.get, "/v1/planner/appointments/\(created.id)", token: ana.token)
            #expect(gone.status == .notFound && gone.problem?.title == "unknown-appointment")
        }
    }

    @Test func anAppointmentIsArchivedOnceItIsOver() async throws {
        let fixture = try await PlannerDay.fixture()
        try await fixture.test { client in
            let ana = try await client.customer("ana@example.com")
            let work = try await client.appointment(PlannerDay.work, token: ana.token)
            #expect(work.state == .unscheduled)
            fixture.clock.advance(by: 11 * 3600 + 1)  // 17:00:01
            let token = try await client.login("ana@example.com", "customer-password")  // the first token expired
            let shown = try await client.call(.get, "/v1/planner/appointments/\(work.id)", token: token)
            #expect(try shown.decode(PlannerAppointment.self).state == .archived)
            let cancel = try await client.call(.post, "/v1/planner/appointments/\(work.id)/cancel", token: token)
            #expect(cancel.status == .conflict)
        }
    }

    @Test func anotherCustomersAppointmentsAndDaysAreInvisible() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let bob = try await client.customer("bob@example.com")
            let work = try await client.appointment(PlannerDay.work, token: ana.token)
            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/v1/planner/appointments/\(work.id)", nil),
                (.put, "/v1/planner/appointments/\(work.id)", PlannerDay.lunch),
                (.delete, "/v1/planner/appointments/\(work.id)", nil),
                (.post, "/v1/planner/appointments/\(work.id)/cancel", nil),
                (.post, "/v1/planner/days/\(PlannerDay.date)/primary", #"{"appointment_id":\#(work.id)}"#),
            ]
            for (method, path, json) in requests {
                let response = try await client.call(method, path, token: bob.token, json: json)
                #expect(response.status == .notFound, "bob \(method) \(path): \(response.status)")
                #expect(response.problem?.title == "unknown-appointment")
            }
            let list = try await client.call(.get, "/v1/planner/appointments", token: bob.token)
            #expect(try list.decode(AppointmentList.self).appointments.isEmpty)
            try await client.call(.put, "/v1/planner/preferences", token: bob.token, json: PlannerDay.cyclist)
            #expect(try await client.day(token: bob.token).steps.isEmpty)
            #expect(try await client.call(.get, "/v1/planner/preferences", token: ana.token).decode(PlannerProfile.self).home == nil)
            // Ana's appointment is untouched.
            #expect(try await client.call(.get, "/v1/planner/appointments/\(work.id)", token: ana.token).status == .ok)
        }
    }

    @Test func invalidFieldsAreNamedIn422Problems() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let admin = try await client.admin()
            let place = #""date":"2025-03-14","place":{"x":100,"y":100}"#
            let cases: [(HTTPRequest.Method, String, String, String)] = [
                (.post, "/v1/planner/appointments", #"{"place":{"x":1,"y":1},"start":"09:00","end":"10:00"}"#, "date"),
                (.post, "/v1/planner/appointments", #"{"date":"2025-02-30","place":{"x":1,"y":1},"start":"09:00","end":"10:00"}"#, "date"),
                (.post, "/v1/planner/appointments", #"{"date":"2025-03-14","place":{"x":9000,"y":1},"start":"09:00","end":"10:00"}"#, "place"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"10:00\",\"end\":\"09:00\"}", "end"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"9h\",\"end\":\"10:00\"}", "start"),
                (.post, "/v1/planner/appointments", "{\(place)}", "start"),
                (.post, "/v1/planner/appointments", "{\(place),\"window\":{\"start\":\"12:00\",\"end\":\"12:20\"},\"duration_min\":30}", "duration_min"),
                (.post, "/v1/planner/appointments", "{\(place),\"window\":{\"start\":\"12:00\"},\"duration_min\":30}", "window.end"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"09:00\",\"end\":\"10:00\",\"passengers\":\"two\"}", "passengers"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"09:00\",\"end\":\"10:00\",\"passengers\":9}", "passengers"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"09:00\",\"end\":\"10:00\",\"forbidden_means\":[\"taxi\",\"rocket\"]}", "forbidden_means[1]"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"09:00\",\"end\":\"10:00\",\"recurrence\":{\"weekdays\":[\"funday\"]}}", "recurrence.weekdays[0]"),
                (.post, "/v1/planner/appointments", "{\(place),\"start\":\"09:00\",\"end\":\"10:00\",\"recurrence\":{\"weekdays\":[\"monday\"],\"until\":\"2025-01-01\"}}", "recurrence.until"),
                (.put, "/v1/planner/preferences", #"{"criterion":"slowest"}"#, "criterion"),
                (.put, "/v1/planner/preferences", #"{"max_walk_m":-1}"#, "max_walk_m"),
                (.put, "/v1/planner/preferences", #"{"bike_until":"25:99"}"#, "bike_until"),
                (.put, "/v1/planner/preferences", #"{"templates":[{"name":"sport","disabled_means":["jetpack"]}]}"#, "templates[0].disabled_means[0]"),
                (.get, "/v1/planner/days/14-03-2025", "", "date"),
                (.post, "/v1/planner/days/\(PlannerDay.date)/primary", "{}", "appointment_id"),
            ]
            for (method, path, json, field) in cases {
                let response = try await client.call(method, path, token: ana.token, json: json.isEmpty ? nil : json)
                #expect(response.status == .unprocessableContent, "\(path) \(json): \(response.status) \(response.text)")
                #expect(response.problem?.title == "invalid-field" && response.problem?.field == field, "\(json): \(response.text)")
            }
            let rain = try await client.call(.put, "/v1/admin/conditions/\(PlannerDay.date)", token: admin, json: #"{"rain_hours":[3,24]}"#)
            #expect(rain.status == .unprocessableContent && rain.problem?.field == "rain_hours[1]")
            let noHome = try await client.call(.get, "/v1/planner/days/\(PlannerDay.date)", token: ana.token)
            #expect(noHome.status == .conflict && noHome.problem?.title == "home-not-set")
        }
    }

    @Test func preferencesRoundTripAndDefaultWhenNeverSet() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            let defaults = try await client.call(.get, "/v1/planner/preferences", token: ana.token).decode(PlannerProfile.self)
            #expect(defaults.criterion == .fastest && defaults.maxWalkM == 2000 && defaults.noBikeInRain && defaults.home == nil)
            let saved = try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: """
                {"criterion":"greenest","disabled_means":["taxi"],"templates":[{"name":"formal","disabled_means":["bike"]}],
                 "max_walk_m":1200,"no_bike_in_rain":false,"bike_until":"22:00","transit_until":"23:30","owns_car":true,
                 "owns_bike":true,"season_pass":true,"home":{"x":500,"y":500},"day_start":"07:00"}
                """)
            #expect(saved.status == .ok, "\(saved.text)")
            let read = try await client.call(.get, "/v1/planner/preferences", token: ana.token).decode(PlannerProfile.self)
            #expect(read.criterion == .greenest && read.disabledMeans == [.taxi] && read.templates.first?.name == "formal")
            #expect(read.maxWalkM == 1200 && !read.noBikeInRain && read.bikeUntil == "22:00" && read.transitUntil == "23:30")
            #expect(read.ownsCar && read.ownsBike && read.seasonPass && read.home?.x == 500 && read.dayStart == "07:00")
        }
    }

    @Test func aStoredAppointmentSurvivesARestart() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("service.sqlite")
        let (token, id) = try await PlannerDay.fixture(store: try SQLiteDispatchStore(path: path)).test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: PlannerDay.cyclist)
            try await client.call(.put, "/v1/admin/conditions/\(PlannerDay.date)", token: try await client.admin(),
                                  json: #"{"rain_hours":[7]}"#)
            return (ana.token, try await client.appointment(PlannerDay.lunch, token: ana.token).id)
        }
        try await PlannerDay.fixture(store: try SQLiteDispatchStore(path: path)).test { client in
            let shown = try await client.call(.get, "/v1/planner/appointments/\(id)", token: token)
            #expect(shown.status == .ok, "\(shown.text)")
            #expect(try shown.decode(PlannerAppointment.self).window?.start == "12:30")
            #expect(try await client.call(.get, "/v1/planner/preferences", token: token).decode(PlannerProfile.self).ownsBike)
            #expect(try await client.day(token: token).conditions.rainHours == [7])
        }
    }
}
