import Testing
@testable import TripPlanner

/// Rain announced for the morning moves the bike trip to another means, and the change says so.
@Test func replanningAfterRainSwitchesTheBikeToAnotherMeans() throws {
    var appointments = [fixed("office", 10, 11, at: point(6000, 1000))]
    var day = planner(ownsBike: true, sharing: [SharingVehicle(kind: .car, position: point(1200, 1000)),
                                                SharingVehicle(kind: .car, position: point(5800, 1000))])
    let dry = day.plan(appointments, criterion: .greenest)
    #expect(dry.trip(to: AppointmentID("office"))?.mainMeans == .ownBike)
    let (wet, changes) = day.replan(after: .weather(Weather(rainyHours: Set(6...10))), appointments: &appointments, previous: dry)
    #expect(wet.trip(to: AppointmentID("office"))?.mainMeans == .carSharing)
    #expect(changes.contains { $0.appointment == AppointmentID("office") && $0.description.contains("bike → walk+car-sharing") })
}

/// Cancelling an appointment drops its trip from the new plan.
@Test func replanningAfterACancellationDropsItsTrip() throws {
    var appointments = [fixed("a", 9, 10, at: point(2000, 1000)), fixed("b", 11, 12, at: point(2500, 1000))]
    var day = planner()
    let before = day.plan(appointments, criterion: .fastest)
    let (after, changes) = day.replan(after: .cancel(AppointmentID("b")), appointments: &appointments, previous: before)
    #expect(after.trip(to: AppointmentID("b")) == nil)
    #expect(changes.contains { $0.description == "no more trip to b" })
}
