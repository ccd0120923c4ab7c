import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TripPlanner
@testable import DispatchService

/// `POST /v1/planner/days/{date}/book`: the plan's taxi sub-routes become D11 reservations or immediate
/// requests through the dispatch host, never twice, and bookings the changed plan dropped are reported.
@Suite struct PlannerBookingTests {
    static let taxiOnly = #"""
        {"home":{"x":500,"y":500},"max_walk_m":100,"disabled_means":["bike","car","transit","bike-sharing","car-sharing"]}
        """#
    static let meeting = #"""
        {"title":"Meeting","date":"2025-03-14","place":{"x":3000,"y":3000},"start":"09:00","end":"10:00"}
        """#

    @Test func bookingTurnsATaxiLegTwoHoursAheadIntoAReservationListedWithTheRides() async throws {
        try await PlannerDay.fixture(at: "06:00").test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: Self.taxiOnly)
            _ = try await client.appointment(Self.meeting, token: ana.token)  // taxis at ~08:48 and 10:00
            let day = try await client.day(token: ana.token)
            let taxiLegs = day.legs.filter { $0.means == .taxi }
            #expect(taxiLegs.count == 2, "\(day.legs.map(\.means)) \(day.warnings.map(\.message))")

            let booked = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/book", token: ana.token)
            #expect(booked.status == .ok, "\(booked.text)")
            let bookings = try booked.decode(BookingList.self)
            #expect(bookings.bookings.map(\.outcome) == ["reserved", "reserved"], "\(booked.text)")
            #expect(bookings.bookings.first?.ride?.meetingTime == taxiLegs.first?.departure)

            let rides = try await client.call(.get, "/v1/rides", token: ana.token).decode(RideList.self).rides
            #expect(rides.map(\.id) == bookings.rideIds)
            #expect(rides.allSatisfy { $0.kind == "reservation" && $0.status == "scheduled" })

            let again = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/book", token: ana.token)
            let second = try again.decode(BookingList.self)
            #expect(second.bookings.map(\.outcome) == ["already-booked", "already-booked"] && second.rideIds == bookings.rideIds)
            #expect(try await client.call(.get, "/v1/rides", token: ana.token).decode(RideList.self).rides.count == 2)
        }
    }

    @Test func aTaxiLegDepartingSoonIsRequestedAndOneTooSoonToReserveIsSkipped() async throws {
        try await PlannerDay.fixture(at: "08:40").test { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", x: 500, y: 500, adminToken: admin)
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: Self.taxiOnly)
            _ = try await client.appointment(Self.meeting, token: ana.token)
            let booked = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/book", token: ana.token)
            let bookings = try booked.decode(BookingList.self).bookings
            #expect(bookings.map(\.outcome) == ["requested", "skipped"], "\(booked.text)")
            #expect(bookings.first?.ride?.kind == "immediate" && bookings.first?.ride?.status == "offered")
            #expect(bookings.last?.reason?.contains("too late for a reservation") == true)  // 10:00 is 80 min ahead
        }
    }

    @Test func aBookingTheChangedPlanNoLongerNeedsIsReportedStaleNotCancelled() async throws {
        try await PlannerDay.fixture().test { client in
            let ana = try await client.customer("ana@example.com")
            try await client.call(.put, "/v1/planner/preferences", token: ana.token, json: Self.taxiOnly)
            let meeting = try await client.appointment(Self.meeting, token: ana.token)
            let first = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/book", token: ana.token)
            #expect(try first.decode(BookingList.self).rideIds.count == 2)
            try await client.call(.post, "/v1/planner/appointments/\(meeting.id)/cancel", token: ana.token)
            let second = try await client.call(.post, "/v1/planner/days/\(PlannerDay.date)/book", token: ana.token)
            let list = try second.decode(BookingList.self)
            #expect(list.bookings.map(\.outcome) == ["stale", "stale"] && list.rideIds.isEmpty, "\(second.text)")
            let rides = try await client.call(.get, "/v1/rides", token: ana.token).decode(RideList.self).rides
            #expect(rides.allSatisfy { $0.status == "scheduled" })
        }
    }
}
