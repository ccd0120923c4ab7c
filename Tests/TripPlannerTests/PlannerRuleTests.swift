import DispatchCore
import Testing
@testable import TripPlanner

/// Two fixed appointments that overlap give a warning naming both; the later is left out until one is chosen.
@Test func overlappingFixedAppointmentsAreWarnedAbout() {
    let plan = planner().plan([fixed("a", 10, 12, at: point(1500, 1000)), fixed("b", 11, 13, at: point(1500, 1000))],
                              criterion: .fastest)
    #expect(plan.warnings(.overlap).map(\.appointments) == [[AppointmentID("a"), AppointmentID("b")]])
    #expect(plan.states["a"] == .scheduled && plan.states["b"] == .unscheduled)
}

/// Choosing the later one as primary cancels the earlier one.
@Test func choosingAPrimaryCancelsTheOtherOverlappingAppointment() {
    let plan = planner(primaries: [AppointmentID("b")])
        .plan([fixed("a", 10, 12, at: point(1500, 1000)), fixed("b", 11, 13, at: point(1500, 1000))], criterion: .fastest)
    #expect(plan.states["a"] == .cancelled && plan.states["b"] == .scheduled)
    #expect(plan.activity(AppointmentID("b")).first?.start == at(11))
}

/// An appointment 8 km away five minutes after the previous one ends cannot be reached on foot.
@Test func anAppointmentNoMeansReachesInTimeIsWarnedUnreachable() {
    let plan = planner().plan([fixed("near", 9, 10, at: point(1500, 1000)), fixed("far", 10 + 5.0 / 60, 11, at: point(9000, 1000))],
                              criterion: .fastest)
    #expect(plan.warnings(.unreachable).map(\.appointments) == [[AppointmentID("far")]])
    #expect(plan.states["near"] == .scheduled && plan.states["far"] == .unscheduled)
}

/// In the dry the 5 km trip goes by bike; in the rain it does not.
@Test func rainExcludesTheBike() {
    let office = [fixed("office", 10, 11, at: point(6000, 1000))]
    let sharedCar = [SharingVehicle(kind: .car, position: point(1200, 1000)), SharingVehicle(kind: .car, position: point(5800, 1000))]
    let dry = planner(ownsBike: true, sharing: sharedCar).plan(office, criterion: .greenest)
    let wet = planner(ownsBike: true, rain: Set(0..<24), sharing: sharedCar).plan(office, criterion: .greenest)
    #expect(dry.trip(to: AppointmentID("office"))?.mainMeans == .ownBike)
    #expect(!wet.allMeans.contains(.ownBike))
    #expect(wet.trip(to: AppointmentID("office"))?.mainMeans == .carSharing)
}

/// A 1.5 km walk is taken with a 2 km limit but not with a 1 km limit.
@Test func theMaximumWalkingDistanceIsRespected() throws {
    let office = [fixed("office", 10, 11, at: point(2500, 1000))]
    let sharedBike = [SharingVehicle(kind: .bike, position: point(1100, 1000)), SharingVehicle(kind: .bike, position: point(2400, 1000))]
    let relaxed = planner(maxWalk: 2_000, sharing: sharedBike).plan(office, criterion: .cheapest)
    let strict = planner(maxWalk: 1_000, sharing: sharedBike).plan(office, criterion: .cheapest)
    #expect(relaxed.trip(to: AppointmentID("office"))?.mainMeans == .walk)
    let trip = try #require(strict.trip(to: AppointmentID("office")))
    #expect(trip.mainMeans == .bikeSharing)
    #expect(strict.trips.flatMap(\.legs).filter { $0.means == .walk }.allSatisfy { $0.distance <= 1_000 })
}

/// When the first trip may not go by car, the car stays home all day, even where it would be cheapest.
@Test func theOwnCarIsUsedOnlyIfTheTripChainStartedWithIt() {
    let sharing = [SharingVehicle(kind: .car, position: point(1100, 1000)), SharingVehicle(kind: .car, position: point(4100, 1000)),
                   SharingVehicle(kind: .car, position: point(8100, 1000))]
    let free = planner(ownsCar: true, sharing: sharing)
        .plan([fixed("a", 9, 10, at: point(4000, 1000)), fixed("b", 11, 12, at: point(8000, 1000))], criterion: .cheapest)
    let noCarToA = planner(ownsCar: true, sharing: sharing)
        .plan([fixed("a", 9, 10, at: point(4000, 1000), disabled: [.ownCar]), fixed("b", 11, 12, at: point(8000, 1000))],
              criterion: .cheapest)
    #expect(free.trips.allSatisfy { $0.mainMeans == .ownCar })
    #expect(!noCarToA.allMeans.contains(.ownCar))
    #expect(noCarToA.trip(to: AppointmentID("b"))?.mainMeans == .carSharing)
}

/// A 30-minute lunch between 12:30 and 14:30, 800 m from a meeting that ends at 12:00, starts at 12:30 sharp.
@Test func aFlexibleLunchIsPlacedAtTheStartOfItsWindow() throws {
    let office = point(4000, 4000), restaurant = point(4800, 4000)
    let plan = planner(ownsCar: true).plan([fixed("morning", 9, 12, at: office), fixed("afternoon", 14, 17, at: office),
                               flexible("lunch", from: 12.5, to: 14.5, minutes: 30, at: restaurant)], criterion: .greenest)
    let lunch = try #require(plan.activity(AppointmentID("lunch")).first)
    #expect(lunch.start == at(12.5) && lunch.end == at(13))
    let trip = try #require(plan.trip(to: AppointmentID("lunch")))
    #expect(trip.mainMeans == .walk && trip.arrival == at(12.5) && trip.departure >= at(12))
}

/// When the morning runs to 12:45, lunch starts as soon as one can walk there.
@Test func aFlexibleLunchStartsAsSoonAsPossibleAfterALateMeeting() throws {
    let office = point(4000, 4000), restaurant = point(4800, 4000)
    let plan = planner(ownsCar: true).plan([fixed("morning", 9, 12.75, at: office), fixed("afternoon", 14, 17, at: office),
                               flexible("lunch", from: 12.5, to: 14.5, minutes: 30, at: restaurant)], criterion: .greenest)
    let lunch = try #require(plan.activity(AppointmentID("lunch")).first)
    #expect(abs(lunch.start - (at(12.75) + 800 / (5 / 3.6))) < 1e-6)
}

/// A lunch inside a working day that allows breaks splits the day around a round trip.
@Test func aLunchIsTakenOutOfAWorkingDayThatAllowsBreaks() throws {
    let office = point(4000, 4000), restaurant = point(4800, 4000)
    let plan = planner(ownsCar: true).plan([fixed("work", 9, 17, at: office, breaks: true),
                               flexible("lunch", from: 12.5, to: 14.5, minutes: 30, at: restaurant)], criterion: .greenest)
    #expect(plan.activity(AppointmentID("lunch")).first?.start == at(12.5))
    #expect(plan.activity(AppointmentID("work")).map(\.end).last == at(17))
    #expect(plan.activity(AppointmentID("work")).count == 2)
    #expect(plan.activity(AppointmentID("work")).first?.end == plan.trip(to: AppointmentID("lunch"))?.departure)
    #expect(zip(plan.steps, plan.steps.dropFirst()).allSatisfy { $0.end <= $1.start + 1e-6 })
}

/// On a strike day the bus is not taken; without the strike it is.
@Test func aStrikeExcludesPublicTransport() throws {
    let bus = try shuttle()
    let office = [fixed("office", 10, 11, at: point(4000, 1000))]
    let sharedCar = [SharingVehicle(kind: .car, position: point(1100, 1000))]
    let normal = planner(maxWalk: 500, sharing: sharedCar, transit: bus).plan(office, criterion: .cheapest)
    let strike = planner(maxWalk: 500, sharing: sharedCar, transit: bus, strikes: [Strike(date: testDay)])
        .plan(office, criterion: .cheapest)
    #expect(normal.trip(to: AppointmentID("office"))?.mainMeans == .transit)
    #expect(!strike.allMeans.contains(.transit))
}

/// A strike during some hours only blocks the buses of those hours.
@Test func aStrikeOfSomeHoursLeavesTheOtherHours() throws {
    let office = [fixed("office", 10, 11, at: point(4000, 1000))]
    let strike = planner(maxWalk: 500, transit: try shuttle(), strikes: [Strike(date: testDay, from: at(14), until: at(16))])
        .plan(office, criterion: .cheapest)
    #expect(strike.trip(to: AppointmentID("office"))?.mainMeans == .transit)
}

/// A weekly appointment occurs on its weekdays until its last date, and not after.
@Test func aRecurrentAppointmentOccursOnItsWeekdaysUntilItsLastDate() throws {
    var gym = flexible("gym", from: 18, to: 21, minutes: 60, at: point(2000, 2000))
    gym.date = try CivilDate(parsing: "2025-03-03")
    gym.recurrence = Recurrence(weekdays: [.monday, .friday], until: try CivilDate(parsing: "2025-03-21"))
    #expect(gym.occurs(on: testDay))                                        // Friday the 14th
    #expect(!gym.occurs(on: try CivilDate(parsing: "2025-03-13")))          // a Thursday
    #expect(!gym.occurs(on: try CivilDate(parsing: "2025-03-28")))          // after the last date
}
