import DispatchCore
import Testing
@testable import TripPlanner

/// Home (1000, 1000) to an office 3 km east at 10:00, planned at 06:00, with every means:
/// walk 36 min; own bike 13 min (0.15 €, 0 g); own car 10 min incl. parking (0.90 €, 510 g);
/// bus with a season pass ~12 min door to door (0 €, 300 g); a reserved taxi 5 min (6.90 €, 630 g).
private func everyMeans() throws -> DayPlanner {
    let core = try dispatchCore(taxis: [point(1500, 1000)])
    return planner(ownsCar: true, ownsBike: true, seasonPass: true, maxWalk: 5_000, transit: try shuttle(),
                   taxi: DispatchTaxiBooking(core: core, dayStart: 0))
}

private let office = [fixed("office", 10, 11, at: point(4000, 1000))]

/// Fastest: the reserved taxi (5 min) beats the own car (10 min with parking).
@Test func fastestPicksTheTaxiOrCar() throws {
    let trip = try #require(try everyMeans().plan(office, criterion: .fastest).trip(to: AppointmentID("office")))
    #expect(trip.mainMeans == .taxi)
    #expect(trip.duration == 300)
}

/// Cheapest: the bus with a season pass (0 €, faster than the free walk).
@Test func cheapestPicksTransitWithASeasonPass() throws {
    let trip = try #require(try everyMeans().plan(office, criterion: .cheapest).trip(to: AppointmentID("office")))
    #expect(trip.mainMeans == .transit)
    #expect(trip.cost == 0)
}

/// Cheapest without the pass: walking (0 €) beats the 2 € ticket.
@Test func cheapestWithoutAPassWalks() throws {
    var planner = try everyMeans()
    planner.conditions.seasonPass = false
    #expect(planner.plan(office, criterion: .cheapest).trip(to: AppointmentID("office"))?.mainMeans == .walk)
}

/// Greenest: the own bike (0 g, faster than walking), out and back.
@Test func greenestPicksTheBike() throws {
    let plan = try everyMeans().plan(office, criterion: .greenest)
    #expect(plan.trips.map(\.mainMeans) == [.ownBike, .ownBike])
    #expect(plan.totals.co2 == 0)
}
