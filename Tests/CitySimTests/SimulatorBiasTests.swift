import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// A small city scenario written inline; `extra` adds or replaces top-level sections.
func inlineScenario(_ sections: String, overrides: [String] = []) throws -> Scenario {
    try Scenario.load(yaml: """
        name: inline
        seed: 5
        duration_hours: 4
        warmup_hours: 0
        \(sections)
        """, file: "inline.yaml", overrides: overrides)
}

@Suite("Refused requests are counted")
struct RefusedRequestTests {
    /// The load generator draws the very customers the simulator sees (same seed, same streams).
    static func planned(_ scenario: Scenario) throws -> [PlannedRequest] {
        try ScenarioPlay(scenario: scenario).requests.filter { $0.time >= scenario.warmupHours * 3600 }
    }

    @Test("requests refused by D12 (customer already has an open request) are counted, not lost")
    func openRequestRefusalsAreCounted() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", ["demand.customers=40", "demand.patience={kind: infinite}"])
        let summary = try CitySimulation(scenario: scenario).run().summary
        let planned = try Self.planned(scenario)
        #expect(summary.requests.refusedOpenRequest > 0)
        #expect(summary.requests.refusedTooSoon == 0)
        #expect(summary.requests.generated + summary.requests.refusedOpenRequest == planned.count)
    }

    @Test("reservation leads shorter than reservation_min_lead_s are refused (D11) and counted, never raised")
    func shortLeadsAreRefusedAndCounted() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", [
            "duration_hours=6", "demand.reservations={share: 0.5, lead_min_hours: 1, lead_max_hours: 3}",
            "dispatch.reservation_min_lead_s=7200", "dispatch.allocation_lead_s=600", "dispatch.reservation_cancel_cutoff_s=600"])
        let result = try CitySimulation(scenario: scenario).run()
        let tooSoon = try Self.planned(scenario).filter { p in p.meetingTime.map { $0 - p.time < 7200 } ?? false }
        #expect(tooSoon.count > 100)
        #expect(result.summary.requests.refusedTooSoon == tooSoon.count)
        for ride in result.rides where ride.kind == "reservation" {
            #expect(try #require(ride.meetingTime) - ride.requestedAt >= 7200)
        }
    }
}

@Suite("Idle drift")
struct IdleDriftTests {
    @Test("an offer during an idle drift voids the move: a later decline does not teleport the taxi to the hotspot")
    func offerDuringDriftLeavesTheTaxiWhereItIs() throws {
        let scenario = try inlineScenario("""
            city: { width_km: 4, height_km: 4, zone: { side_km: 2 }, metric: euclidean, speed_kmh: 30,
                    hotspots: [{ name: far, x_km: 3.9, y_km: 3.9, radius_km: 0.1 }] }
            demand: { requests_per_hour: 1, patience: { kind: zero } }
            fleet: { shifts: [{ name: all-day, start: "00:00", end: "24:00", taxis: 1 }] }
            drivers: { accept_probability: 0, response_time: { kind: fixed, value_s: 5 }, never_answer_share: 0,
                       rejoin_after_decline: { kind: fixed, value_s: 300 }, idle: drift }
            """)
        let sim = try CitySimulation(scenario: scenario)
        try sim.setUpFleet()
        sim.shiftStarts(0)
        let driver = DriverID(0)
        let start = try #require(sim.core.position(of: driver))
        let hotspot = Position(x: 3900, y: 3900)
        try #require(sim.drivers[0].pendingPosition == hotspot)  // drifting toward the hotspot
        sim.rides.append(RideRecord(customer: CustomerID(0), requestedAt: 0, meetingTime: nil, origin: start,
                                    destination: Position(x: 100, y: 100), originZone: 0),
                         draw: RideDraw(RideDraw.Parameters(scenario), sim.ridesRandom))
        #expect(sim.command(.requestRide(RequestID(0), customer: CustomerID(0), origin: start,
                                         destination: Position(x: 100, y: 100), patience: 0)))
        // The driver declines after 5 s and turns available again 300 s later.
        while let time = sim.events.peekTime, time <= 305, let (_, event) = sim.events.popNext() { try sim.handle(event) }
        #expect(sim.rides[0].declines == 1)
        let zone = try sim.city.geometry.zone(of: start)
        #expect(sim.core.status(of: driver) == .available(zone))
        #expect(sim.core.position(of: driver) == start)
    }
}

@Suite("Shifts over midnight")
struct MidnightShiftTests {
    @Test("an all-day shift carries on over midnight: one shift per taxi over two days, no fresh start")
    func allDayShiftCarriesOn() throws {
        let scenario = try SimulationRunTests.scenario("one-zone-erlang.yaml", ["duration_hours=30"])
        #expect(scenario.roster(horizon: 30 * 3600).allSatisfy { $0.shifts == [ShiftInterval(start: 0, end: 2 * 86400)] })
        let sim = try CitySimulation(scenario: scenario)
        let result = try sim.run()
        #expect(sim.drivers.elements.allSatisfy { $0.shiftsStarted == 1 })
        #expect(result.drivers.allSatisfy { abs($0.shiftHours - 29) < 1e-9 })  // 30 h less the 1 h warm-up
    }

    @Test("a night shift 22:00–06:00 stays two separate pieces on day one and one per night after")
    func nightShiftsStaySeparate() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", [
            "duration_hours=48", "fleet.shifts=[{name: night, start: \"22:00\", end: \"06:00\", taxis: 2}]"])
        let roster = scenario.roster(horizon: 48 * 3600)
        #expect(roster[0].shifts == [ShiftInterval(start: 0, end: 6 * 3600), ShiftInterval(start: 22 * 3600, end: 30 * 3600),
                                     ShiftInterval(start: 46 * 3600, end: 54 * 3600)])
    }
}

@Suite("Common random numbers for rides")
struct RideCommonRandomNumbersTests {
    @Test("a request's service time is the same whatever the fleet size (drawn per request, not at pickup)")
    func serviceTimesDoNotDependOnTheFleet() throws {
        func rides(_ taxis: Int) throws -> [Int: Double] {
            let scenario = try SimulationRunTests.scenario("one-zone-erlang.yaml", [
                "duration_hours=6", "demand.patience={kind: infinite}",
                "fleet.shifts=[{name: all-day, start: \"00:00\", end: \"24:00\", taxis: \(taxis)}]"])
            let result = try CitySimulation(scenario: scenario).run()
            var times: [Int: Double] = [:]
            for ride in result.rides { if let p = ride.pickupAt, let d = ride.dropoffAt { times[ride.id] = d - p } }
            return times
        }
        let small = try rides(18), large = try rides(26)
        let both = Set(small.keys).intersection(large.keys)
        #expect(both.count > 400)
        #expect(both.allSatisfy { abs(small[$0]! - large[$0]!) < 1e-6 })
    }

    @Test("drive noise is drawn per request: the same ride takes the same time with another fleet")
    func rideNoiseDoesNotDependOnTheFleet() throws {
        func rides(_ scale: Double) throws -> [Int: Double] {
            let scenario = try SimulationRunTests.scenario("smoke.yaml", ["drivers.travel_time_cv=0.3", "fleet.scale=\(scale)"])
            var times: [Int: Double] = [:]
            for ride in try CitySimulation(scenario: scenario).run().rides {
                if let p = ride.pickupAt, let d = ride.dropoffAt { times[ride.id] = d - p }
            }
            return times
        }
        let small = try rides(0.8), large = try rides(1.2)
        let both = Set(small.keys).intersection(large.keys)
        #expect(both.count > 200)
        #expect(both.allSatisfy { abs(small[$0]! - large[$0]!) < 1e-6 })  // one speed all day in smoke
    }

    @Test("a reservation share above zero does not move any customer's arrival, place or patience")
    func reservationsDoNotShiftArrivals() throws {
        func customers(_ share: Double) throws -> [String] {
            let scenario = try SimulationRunTests.scenario("smoke.yaml", ["demand.reservations={share: \(share)}"])
            return try ScenarioPlay(scenario: scenario).requests.map { "\($0.time) \($0.origin) \($0.destination) \($0.patience)" }
        }
        let without = try customers(0), with = try customers(0.3)
        #expect(without.count > 500)
        #expect(without == with)
    }
}

@Suite("Where trips start and end")
struct TripPlaceTests {
    @Test("a hotspot disc at the corner is resampled, not clipped: no point on the edges, quarter-disc mean")
    func cornerHotspotIsNotPiledOntoTheEdges() throws {
        let scenario = try inlineScenario("""
            city: { width_km: 4, height_km: 4, zone: { side_km: 2 }, metric: euclidean, speed_kmh: 30, uniform_weight: 0,
                    hotspots: [{ name: corner, x_km: 0, y_km: 0, radius_km: 1 }] }
            demand: { requests_per_hour: 1 }
            fleet: { shifts: [{ name: all-day, start: "00:00", end: "24:00", taxis: 1 }] }
            """)
        let city = try CityModel(scenario: scenario)
        let random = RandomStream(name: "test", seed: 1, replication: 0)
        let n = 20_000
        let points = (0..<n).map { _ in city.drawOrigin(random) }
        #expect(points.filter { $0.x == 0 || $0.y == 0 }.count == 0)
        // Uniform on the quarter disc of radius R: E[x] = 4R/(3π), Var[x] = R²/4 − E[x]².
        let mean = points.reduce(0) { $0 + $1.x } / Double(n)
        let expected = 4 * 1000 / (3 * Double.pi)
        let se = (1000.0 * 1000 / 4 - expected * expected).squareRoot() / Double(n).squareRoot()
        #expect(abs(mean - expected) < 3 * se, "mean x \(mean), quarter disc \(expected) ± \(3 * se)")
    }

    @Test("min_trip_km and max_trip_km hold exactly in the city's metric (Manhattan), for every trip")
    func tripLengthBandIsExactInTheMetric() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", ["demand.min_trip_km=1", "demand.max_trip_km=1.3"])
        let rides = try CitySimulation(scenario: scenario).run().rides
        #expect(rides.count > 500)
        var shorterStraight = 0
        for ride in rides {
            let manhattan = abs(ride.originX - ride.destinationX) + abs(ride.originY - ride.destinationY)
            #expect(manhattan >= 1000 && manhattan <= 1300)
            let straight = hypot(ride.originX - ride.destinationX, ride.originY - ride.destinationY)
            if straight < 1000 { shorterStraight += 1 }
        }
        #expect(shorterStraight > rides.count / 10)  // the band is Manhattan, not straight line
    }

    /// Trips of at least 9.5 km in a 10 × 1 km city whose customers all start at a hotspot in its middle:
    /// the first customer's destination cannot be drawn.
    static func unreachableBandScenario() throws -> Scenario {
        try inlineScenario("""
            city: { width_km: 10, height_km: 1, zone: { side_km: 1 }, metric: euclidean, speed_kmh: 30, uniform_weight: 0,
                    hotspots: [{ name: middle, x_km: 5, y_km: 0.5, radius_km: 0.2 }] }
            demand: { requests_per_hour: 60, min_trip_km: 9.5 }
            fleet: { shifts: [{ name: all-day, start: "00:00", end: "24:00", taxis: 1 }] }
            """)
    }

    @Test("a trip-length band out of reach fails the run with an error naming min_trip_km, not a short trip")
    func unreachableBandIsAnError() throws {
        let scenario = try Self.unreachableBandScenario()
        do {
            _ = try CitySimulation(scenario: scenario).run()
            Issue.record("a run with unreachable trips succeeded")
        } catch let error as TripLengthError {
            #expect(error.description.contains("min_trip_km"))
        }
    }
}
