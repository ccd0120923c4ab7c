import DispatchCore
import Foundation
import Testing
import TripPlanner
@testable import DispatchService

extension StoreContract {
    static func appointment(owner: Int, title: String, date: CivilDate) -> PlannerAppointment {
        PlannerAppointment(id: 0, owner: owner, title: title, date: date, place: Point(Position(x: 100, y: 200)),
                           start: "09:00", end: "10:00", passengers: 0, forbiddenMeans: [], state: .unscheduled)
    }

    /// The planner's rows: appointments with ids never reused, preferences and conditions replaced
    /// on save, primaries replaced as a set, bookings listed per owner and day; all on a reopened store.
    static func plannerRowsRoundTrip(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            let store = try await site.open()
            let owner = try await store.insert(Account(email: "p@example.com", name: "P", role: .customer, passwordHash: "h")).id
            let planner = try await site.planner(beside: store)
            let day = try CivilDate(parsing: "2025-03-14"), next = try CivilDate(parsing: "2025-03-15")
            let first = try await planner.insertAppointment(appointment(owner: owner, title: "Work", date: day))
            var second = try await planner.insertAppointment(appointment(owner: owner, title: "Lunch", date: day))
            #expect(second.id > first.id)
            second.title = "Late lunch"
            try await planner.updateAppointment(second)
            try await planner.deleteAppointment(id: first.id)
            let third = try await planner.insertAppointment(appointment(owner: owner, title: "Gym", date: next))
            #expect(third.id > second.id)

            var profile = PlannerProfile()
            profile.maxWalkM = 900
            try await planner.saveProfile(PlannerProfile(), owner: owner)
            try await planner.saveProfile(profile, owner: owner)
            try await planner.saveConditions(CityDayConditions(rainHours: [7], strikes: []), on: day)
            try await planner.saveConditions(CityDayConditions(rainHours: [13, 14], strikes: [.init(from: "16:00", until: nil)]), on: day)
            try await planner.savePrimaries([first.id, second.id], owner: owner, on: day)
            try await planner.savePrimaries([second.id, third.id], owner: owner, on: day)
            let booking = PlannerBooking(owner: owner, date: day, departure: 3_600, origin: Point(Position(x: 1, y: 2)),
                                         destination: Point(Position(x: 3, y: 4)), ride: 7)
            try await planner.insertBooking(booking)

            let reopened = try await site.planner(beside: try await site.open())
            #expect(try await reopened.appointments(owner: owner).map(\.title) == ["Late lunch", "Gym"])
            #expect(try await reopened.appointment(id: third.id)?.id == third.id)
            #expect(try await reopened.appointment(id: first.id) == nil)
            #expect(try await reopened.profile(owner: owner)?.maxWalkM == 900)
            #expect(try await reopened.profile(owner: owner + 1) == nil)
            #expect(try await reopened.conditions(on: day)?.rainHours == [13, 14])
            #expect(try await reopened.conditions(on: day)?.strikes.first?.from == "16:00")
            #expect(try await reopened.conditions(on: next) == nil)
            #expect(try await reopened.primaries(owner: owner, on: day) == [second.id, third.id])
            #expect(try await reopened.primaries(owner: owner, on: next).isEmpty)
            #expect(try await reopened.bookings(owner: owner, on: day).map(\.ride) == [7])
            #expect(try await reopened.bookings(owner: owner, on: next).isEmpty)
        }
    }
}
