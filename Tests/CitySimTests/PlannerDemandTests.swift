import DispatchCore
import Foundation
import Testing
import TripPlanner
@testable import CitySim

/// Planner users: their generated days, planned by TripPlanner, book taxis through the same core.
@Suite struct PlannerDemandTests {
    /// The rush-hour city's size and feed, a small all-day fleet, a light stochastic demand and 120
    /// planner users who own bikes (so rain matters) and plan at 06:00 (so some legs are < 2 h ahead).
    static let yaml = """
        name: planner-test
        duration_hours: 24
        city:
          width_km: 12
          height_km: 10
          zone: { area_km2: 2 }
          detour_factor: 1.25
          speed_kmh: 30
        demand:
          requests_per_hour: 20
          patience: { kind: exponential, mean_s: 180 }
        fleet:
          shifts:
            - { name: all-day, start: "00:00", end: "24:00", taxis: 60 }
        planner:
          users: 120
          date: 2025-03-14
          plan_at_hours: 6
          transit: { gtfs: gtfs/rush-hour, origin_lat: 45.0, origin_lon: 7.0 }
          profiles:
            - name: commuter
              share: 2
              owns_bike: 1
              owns_car: 0.2
              season_pass: 0.5
              criteria: { fastest: 1, cheapest: 1 }
              day_start_hours: [6, 7]
              appointments:
                - { title: Work, start_hours: [7, 9], hours: [8, 9], breaks: true }
                - { title: Lunch, near: Work, radius_km: 0.8, window_hours: [12, 14], minutes: 30 }
            - name: evening
              share: 1
              owns_bike: 1
              criteria: { fastest: 1 }
              day_start_hours: 16
              appointments:
                - { title: Dinner, start_hours: [19, 21], hours: 2 }
        """

    static func scenario(_ overrides: [String] = []) throws -> Scenario {
        try Scenario.load(yaml: yaml, file: scenariosDirectory.appendingPathComponent("planner-test.yaml").path,
                          overrides: overrides)
    }

    static func run(_ overrides: [String] = []) throws -> (CitySimulation, RunResult) {
        let simulation = try CitySimulation(scenario: scenario(overrides))
        return (simulation, try simulation.run())
    }

    static let rainAllDay = "planner.rain_hours=[\((0..<24).map(String.init).joined(separator: ","))]"

    @Test("the same seed gives identical planner demand and planner figures")
    func sameSeedGivesIdenticalPlannerDemand() throws {
        let (first, firstResult) = try Self.run()
        let (second, secondResult) = try Self.run()
        #expect(first.plannerDemand?.legs == second.plannerDemand?.legs)
        #expect(firstResult.summary.withoutTimings == secondResult.summary.withoutTimings)
        let other = try CitySimulation(scenario: Self.scenario(), seed: 2)
        #expect(other.plannerDemand?.legs != first.plannerDemand?.legs)
    }

    @Test("every planner taxi leg becomes exactly one request or reservation")
    func everyTaxiLegBecomesOneBooking() throws {
        let (simulation, result) = try Self.run()
        let taxi = try #require(result.summary.planner).taxi
        #expect(taxi.legs > 0)
        #expect(taxi.legs == taxi.requests + taxi.reservations + taxi.refused + taxi.notBooked)
        #expect(taxi.refused == 0 && taxi.notBooked == 0)
        let plannerRides = result.rides.filter { $0.customer >= PlannerDemand.firstCustomer }
        #expect(plannerRides.count == taxi.requests + taxi.reservations)
        #expect(Set(simulation.plannerBookings.compactMap { $0?.rawValue }).count == plannerRides.count)
        #expect(taxi.requests + taxi.reservations == taxi.served + taxi.rejected + taxi.cancelled + taxi.expired + taxi.pendingAtEnd)
    }

    @Test("legs departing at least 2 h after planning are reservations, the others immediate requests at departure")
    func legsTwoHoursAheadAreReservations() throws {
        let (simulation, result) = try Self.run()
        let legs = try #require(simulation.plannerDemand).legs
        let planAt = 6.0 * 3600
        #expect(legs.contains { $0.isReservation } && legs.contains { !$0.isReservation })
        for (leg, booking) in zip(legs, simulation.plannerBookings) {
            #expect(leg.isReservation == (leg.departure >= planAt + 7200))
            let ride = try #require(booking.map { result.rides[$0.rawValue] })
            if leg.isReservation {
                #expect(ride.kind == "reservation" && ride.requestedAt == planAt && ride.meetingTime == leg.departure)
            } else {
                #expect(ride.kind == "immediate" && ride.requestedAt == max(planAt, leg.departure))
            }
        }
    }

    @Test("a profile's own plan_at_hours sets when its users book their reservations")
    func profilePlanTimeOverridesThePlanners() throws {
        let (_, result) = try Self.run(["planner.profiles[1].plan_at_hours=14"])
        let booked = Set(result.rides.filter { $0.customer >= PlannerDemand.firstCustomer && $0.kind == "reservation" }
            .map(\.requestedAt))
        #expect(booked.sorted() == [21_600.0, 50_400.0])   // 06:00 and 14:00
    }

    @Test("a rainy day (no bike) gives more taxi or transit trips than a dry day for the same population")
    func rainyDayGivesMoreTaxiOrTransit() throws {
        let dry = try #require(CitySimulation(scenario: Self.scenario()).plannerDemand)
        let wet = try #require(CitySimulation(scenario: Self.scenario([Self.rainAllDay])).plannerDemand)
        func motorised(_ d: PlannerDemand) -> Int { (d.tripsByMeans[.taxi] ?? 0) + (d.tripsByMeans[.transit] ?? 0) }
        #expect(dry.users == wet.users && dry.appointments == wet.appointments)
        #expect((wet.tripsByMeans[.ownBike] ?? 0) == 0 && (dry.tripsByMeans[.ownBike] ?? 0) > 0)
        #expect(motorised(wet) > motorised(dry))
    }

    @Test("a strike day removes transit trips")
    func strikeDayRemovesTransit() throws {
        // Rain all day keeps the bikes home, so some users take transit when it runs.
        let normal = try #require(CitySimulation(scenario: Self.scenario([Self.rainAllDay])).plannerDemand)
        let strike = try #require(CitySimulation(scenario: Self.scenario(
            [Self.rainAllDay, "planner.strike={from_hours: 0, until_hours: 24}"])).plannerDemand)
        #expect((normal.tripsByMeans[.transit] ?? 0) > 0)
        #expect((strike.tripsByMeans[.transit] ?? 0) == 0)
    }

    @Test("request conservation holds with planner users on top of stochastic demand")
    func conservationHoldsWithPlannerUsers() throws {
        let (_, result) = try Self.run()
        let r = result.summary.requests
        let planner = try #require(result.summary.planner)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(r.generated > planner.taxi.requests + planner.taxi.reservations)
    }

    @Test("the planner block appears in summary.json and the report only with a planner section")
    func plannerBlockOnlyWithPlannerSection() throws {
        let (_, result) = try Self.run()
        let json = String(decoding: try ResultWriter.json(result.summary), as: UTF8.self)
        #expect(json.contains("\"planner\"") && json.contains("\"trips_by_means\"") && json.contains("\"appointments_late\""))
        #expect(ReportPage.html(for: result).contains("Planner taxi rides"))
        let plain = try CitySimulation(scenario: loadScenario(minimalScenarioYAML)).run()
        #expect(plain.summary.planner == nil)
        #expect(!String(decoding: try ResultWriter.json(plain.summary), as: UTF8.self).contains("\"planner\""))
    }

    @Test("a missing GTFS folder is a located error at planner.transit.gtfs")
    func missingFeedIsALocatedError() throws {
        #expect {
            _ = try CitySimulation(scenario: Self.scenario(["planner.transit.gtfs=gtfs/nowhere"]))
        } throws: { error in
            (error as? ScenarioError)?.keyPath == "planner.transit.gtfs"
        }
    }
}
