import DispatchCore
import Foundation
import RoadNetwork
import Testing
@testable import CitySim

/// Taxis of a road city move along their routes: every drive is a `RoadLeg`, so a taxi has a position at
/// any time, and D9 (MAD) finds a late taxi on the road where its route has taken it.
@Suite("Road movement")
struct RoadMovementTests {
    /// Helsinki with drives far noisier than the estimates and no slack in the maximum allowed delay,
    /// so that D9 takes many rides away from taxis still on their way.
    static func lateTaxis(hours: Int = 4) throws -> Scenario {
        try HelsinkiScenarioTests.helsinki(["duration_hours=\(hours)", "drivers.travel_time_cv=1.5",
                                            "dispatch.mad.factor=1", "dispatch.mad.slack_s=0"])
    }

    /// Where `p` lies on the segment a → b (0 at a, 1 at b), or nil when it is not on it.
    static func fraction(of p: Position, from a: Position, to b: Position) -> Double? {
        let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy
        guard length2 > 0 else { return nil }
        let t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2
        let off = Position(x: a.x + t * dx, y: a.y + t * dy).euclideanDistance(to: p)
        return off < 1e-6 && t >= -1e-9 && t <= 1 + 1e-9 ? t : nil
    }

    @Test("a leg's position lies on its route, moves forward along it and reaches the end exactly when the leg ends")
    func legMovesForwardAlongItsRoute() throws {
        let city = try CityModel(scenario: try HelsinkiScenarioTests.helsinki())
        let router = try #require(city.roads)
        let from = router.snap(Position(x: 100, y: 100)).point, to = router.snap(Position(x: 900, y: 1500)).point
        let start = 7.5 * 3600
        let path = router.path(from: from, to: to, departingAt: start)
        var leg = RoadLeg(.toPickup, from: from, to: to, startedAt: start, duration: 1.37 * path.duration)  // a slow drive
        #expect(path.points.count > 10)
        var segment = 0, along = 0.0  // where on the polyline the taxi was last seen
        let samples = 500
        for k in 0...samples {
            let time = start + Double(k) / Double(samples) * leg.duration
            let p = leg.position(at: time, on: router)
            #expect(router.snap(p).distance < 1e-6, "\(p) is off the road")
            // The leg's own clock: 1.37 s of the leg are 1 s of the route.
            #expect(p.euclideanDistance(to: path.position(after: (time - start) / 1.37)) < 1e-6)
            // On the polyline, at or after the place of the previous sample.
            var found = false
            while !found, segment < path.points.count - 1 {
                if let t = Self.fraction(of: p, from: path.points[segment], to: path.points[segment + 1]), t >= along - 1e-9 {
                    along = t
                    found = true
                } else {
                    segment += 1
                    along = 0
                }
            }
            #expect(found, "sample \(k) at \(p) is not on the route at or after the previous one")
        }
        #expect(leg.position(at: start - 1, on: router) == from)
        #expect(leg.position(at: leg.endsAt, on: router) == to)
        #expect(leg.position(at: leg.endsAt - 1, on: router).euclideanDistance(to: to) > 1)
    }

    /// Steps a run, calling `check` after every event with the legs in progress before it.
    static func stepping(_ simulation: CitySimulation, _ check: (_ before: [RoadLeg?]) throws -> Void) throws {
        try simulation.begin()
        while true {
            let before = simulation.legs
            guard try simulation.step() else { break }
            try check(before)
        }
    }

    @Test("D9: a taxi that loses its ride on the way turns available where its route put it then, on the road, not at the pickup")
    func revokedTaxiTurnsAvailableOnItsRoute() throws {
        let simulation = try CitySimulation(scenario: try Self.lateTaxis())
        let router = try #require(simulation.city.roads)
        // A revoked taxi: where it must turn available, and by when.
        var due: [(d: Int32, place: Position, at: Double, pickup: Position)] = []
        var checked = 0, shortOfThePickup = 0
        try Self.stepping(simulation) { before in
            let now = simulation.events.now
            for (d, leg) in before.enumerated() where leg?.purpose == .toPickup && simulation.legs[d] == nil {
                var leg = leg!  // D9 took the ride (a pickup replaces the leg by the ride's)
                #expect(leg.startedAt < now && now < leg.endsAt, "revoked at \(now), not during its drive")
                let stop = leg.firstPlace(from: now, on: router, inside: simulation.city.geometry.contains)
                due.append((Int32(d), stop.place, stop.time, leg.destination))
            }
            let next = simulation.events.peekTime ?? .infinity
            for entry in due where entry.at < next {
                #expect(simulation.core.position(of: DriverID(Int(entry.d))) == entry.place)
                #expect(router.snap(entry.place).distance < 1e-6)
                checked += 1
                if entry.place.euclideanDistance(to: entry.pickup) > 1 { shortOfThePickup += 1 }
            }
            due.removeAll { $0.at < next }
        }
        #expect(checked > 10)
        #expect(shortOfThePickup > checked / 2)
    }

    @Test("the drive to a pickup ends at the snapped pickup point, exactly when the taxi picks the customer up")
    func pickupDriveEndsAtThePickup() throws {
        let simulation = try CitySimulation(scenario: try HelsinkiScenarioTests.helsinki(["duration_hours=4"]))
        let router = try #require(simulation.city.roads)
        var pickups = 0
        try Self.stepping(simulation) { before in
            let now = simulation.events.now
            for (d, leg) in before.enumerated() where leg?.purpose == .toPickup && simulation.legs[d]?.purpose == .ride {
                var leg = leg!
                guard case .onRide(let request)? = simulation.core.status(of: DriverID(d)) else {
                    Issue.record("driver \(d) left its pickup leg without a ride")
                    continue
                }
                let ride = simulation.rides[request.rawValue]
                #expect(leg.destination == ride.origin && router.snap(ride.origin).distance < 1e-9)
                #expect(leg.position(at: now, on: router) == ride.origin)
                if ride.meetingTime == nil { #expect(abs(leg.endsAt - now) < 1e-6) } else { #expect(leg.endsAt <= now + 1e-6) }
                #expect(simulation.legs[d]!.origin == ride.origin && simulation.legs[d]!.destination == ride.destination)
                pickups += 1
            }
        }
        #expect(pickups > 50)
    }

    @Test("an offer stops a drifting taxi where its drift has taken it, and the core has that on-road place")
    func offerStopsADriftWhereTheTaxiIs() throws {
        let simulation = try CitySimulation(scenario: try HelsinkiScenarioTests.helsinki(["duration_hours=6"]))
        let router = try #require(simulation.city.roads)
        var stopped = 0, movedOn = 0
        try Self.stepping(simulation) { before in
            let now = simulation.events.now
            for (d, leg) in before.enumerated() where leg?.purpose == .drift && simulation.legs[d] == nil {
                guard case .offered? = simulation.core.status(of: DriverID(d)) else { continue }  // not reached or shift over
                var leg = leg!
                let place = leg.position(at: now, on: router)
                guard simulation.city.geometry.contains(place) else { continue }  // off the zones: not reported
                #expect(simulation.core.position(of: DriverID(d)) == place)
                #expect(simulation.position(of: Int32(d)) == place)
                stopped += 1
                if place.euclideanDistance(to: leg.origin) > 1 { movedOn += 1 }
            }
        }
        #expect(stopped > 10)
        #expect(movedOn > stopped / 2)
    }

    @Test("with taxis moving along their routes and D9 taking rides on the way, the same seed gives the same output")
    func movementIsDeterministic() throws {
        let scenario = try Self.lateTaxis()
        let first = try CitySimulation(scenario: scenario, seed: 5).run()
        let second = try CitySimulation(scenario: scenario, seed: 5).run()
        #expect(first.summary.fleet.madReassignments > 10)
        #expect(ResultWriter.ridesCSV(first) == ResultWriter.ridesCSV(second))
        #expect(ResultWriter.driversCSV(first) == ResultWriter.driversCSV(second))
        #expect(try ResultWriter.json(first.summary.withoutTimings) == ResultWriter.json(second.summary.withoutTimings))
    }
}
