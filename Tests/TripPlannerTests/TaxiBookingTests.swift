import DispatchCore
import Testing
@testable import TripPlanner

/// A ride starting 4 h after the booking is a reservation in the dispatch core (D11).
@Test func aTaxiBookedTwoHoursAheadIsAReservation() throws {
    let core = try dispatchCore(taxis: [point(1500, 1000)])
    let taxis = DispatchTaxiBooking(core: core, dayStart: 0)
    let receipt = try taxis.book(from: home, to: point(6000, 6000), departure: at(10), customer: CustomerID(1), now: at(6))
    #expect(receipt.kind == .reservation)
    #expect(core.status(of: receipt.request) == .scheduled)
    #expect(receipt.effects.contains(.reservationConfirmed(receipt.request, allocationAt: at(10) - 600)))
}

/// A ride starting in 10 minutes is an immediate request, offered to the nearby taxi.
@Test func aTaxiBookedLessThanTwoHoursAheadIsAnImmediateRequest() throws {
    let core = try dispatchCore(taxis: [point(1500, 1000)])
    let taxis = DispatchTaxiBooking(core: core, dayStart: 0)
    let receipt = try taxis.book(from: home, to: point(6000, 6000), departure: at(6) + 600, customer: CustomerID(1), now: at(6))
    #expect(receipt.kind == .immediate)
    #expect(core.status(of: receipt.request) == .offered(DriverID(1)))
}

/// The quote of an immediate ride waits for the nearest taxi's ETA from `.estimateArrival`.
@Test func anImmediateTaxiQuoteWaitsForTheNearestTaxi() throws {
    let core = try dispatchCore(taxis: [point(1500, 1000), point(9000, 9000)])
    let quote = try #require(DispatchTaxiBooking(core: core, dayStart: 0)
        .quote(from: home, to: point(4000, 1000), departure: at(6), now: at(6)))
    #expect(quote.wait == 50)             // 500 m at 10 m/s
    #expect(quote.rideSeconds == 300 && !quote.isReservation)
    #expect(quote.fare == core.rules.fare.fare(metres: 3000, seconds: 300))
}

/// Booking a planned day's taxi legs reserves the one that starts more than 2 h after planning.
@Test func aPlannedTaxiTripIsBookedAsAReservation() throws {
    let core = try dispatchCore(taxis: [point(1500, 1000)])
    let taxis = DispatchTaxiBooking(core: core, dayStart: 0)
    var day = planner(taxi: taxis)
    day.conditions.preferences.disabledMeans = [.walk]
    let plan = day.plan([fixed("office", 10, 11, at: point(4000, 1000))], criterion: .fastest)
    let receipts = try taxis.bookTaxis(of: plan, customer: CustomerID(7), now: at(6))
    #expect(receipts.map(\.kind) == [.reservation, .reservation])
    #expect(receipts.allSatisfy { core.status(of: $0.request) == .scheduled })
}
