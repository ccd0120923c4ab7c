import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// The model's random inputs against their stated distributions, and one spatial figure with a
/// closed form. Thresholds are the 99.9 % points of the tests' reference distributions.
@Suite("Sampling against known distributions")
struct SamplingTests {
    @Test("hourly arrival counts follow the Poisson rate profile: χ² of the totals and the day-to-day dispersion")
    func arrivalsFollowTheRateProfile() {
        // A profile with a steep rise, a fall and an empty hour (no arrival may fall in it).
        var rates = (0..<24).map { h in 40 + 160 * sin(Double(h) / 24 * .pi) }
        rates[3] = 0
        rates[12] = 400
        let process = DemandProcess(ratePerHour: rates)
        let random = RandomStream(name: "arrivals", seed: 11, replication: 0)
        let days = 100
        var counts = Array(repeating: Array(repeating: 0, count: 24), count: days)
        var t = 0.0
        while let next = process.nextArrival(after: t, horizon: Double(days) * 86400, random) {
            counts[Int(next / 86400)][Int(next.truncatingRemainder(dividingBy: 86400) / 3600)] += 1
            t = next
        }
        #expect(counts.allSatisfy { $0[3] == 0 })
        var chiSquare = 0.0
        for h in 0..<24 where rates[h] > 0 {
            let observed = Double(counts.reduce(0) { $0 + $1[h] }), expected = rates[h] * Double(days)
            chiSquare += (observed - expected) * (observed - expected) / expected
        }
        #expect(chiSquare < 49.73, "χ²(23) = \(chiSquare)")  // 99.9 % point of χ² with 23 degrees of freedom
        // Poisson counts: variance = mean, so (n−1)s²/mean ~ χ²(n−1) for the busiest hour.
        let noon = counts.map { Double($0[12]) }
        let mean = noon.reduce(0, +) / Double(days)
        let dispersion = noon.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / mean
        #expect(dispersion > 59.13 && dispersion < 151.93, "index of dispersion \(dispersion), χ²(99) 0.1 %–99.9 %")
    }

    @Test("origins and destinations without hotspots are uniform over the city (χ² over 8 × 8 cells)")
    func placesAreUniform() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", ["demand.min_trip_km=0"])
        let city = try CityModel(scenario: scenario)
        let random = RandomStream(name: "places", seed: 3, replication: 0)
        let n = 32_000
        var origins = Array(repeating: 0, count: 64), destinations = origins
        for _ in 0..<n {
            let origin = city.drawOrigin(random), destination = try city.drawDestination(from: origin, random)
            origins[min(7, Int(origin.x / 500)) * 8 + min(7, Int(origin.y / 500))] += 1
            destinations[min(7, Int(destination.x / 500)) * 8 + min(7, Int(destination.y / 500))] += 1
        }
        let expected = Double(n) / 64
        for (name, cells) in [("origins", origins), ("destinations", destinations)] {
            let chiSquare = cells.reduce(0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
            #expect(chiSquare < 103.44, "\(name): χ²(63) = \(chiSquare)")  // 99.9 % point
        }
    }

    @Test("a destination in the trip-length band is the destination mixture conditioned on the band, as plain rejection draws it")
    func bandedDestinationsMatchPlainRejection() throws {
        // Uniform part plus one hotspot; origin and destination weights equal, so `drawOrigin` draws the
        // unconditioned mixture and plain rejection from it is the reference.
        let scenario = try SimulationRunTests.scenario("smoke.yaml", [
            "city.width_km=10", "city.height_km=10", "city.zone.area_km2=1", "city.uniform_weight=1",
            "city.hotspots=[{name: h, x_km: 5.5, y_km: 5.5, radius_km: 1.5, origin_weight: 1, destination_weight: 1}]",
            "demand.min_trip_km=1", "demand.max_trip_km=4"])
        let city = try CityModel(scenario: scenario)
        let origin = Position(x: 3_000, y: 3_000), hotspot = Position(x: 5_500, y: 5_500)
        let n = 20_000
        func inBand(_ p: Position) -> Bool { (1_000...4_000).contains(city.tripLength(from: origin, to: p)) }
        let exact = RandomStream(name: "exact", seed: 5, replication: 0), plain = RandomStream(name: "plain", seed: 6, replication: 0)
        var exactInDisc = 0, plainInDisc = 0, exactLength = 0.0, plainLength = 0.0
        for _ in 0..<n {
            let d = try city.drawDestination(from: origin, exact)
            #expect(inBand(d))
            exactInDisc += d.euclideanDistance(to: hotspot) <= 1_500 ? 1 : 0
            exactLength += city.tripLength(from: origin, to: d)
            var p = city.drawOrigin(plain)
            while !inBand(p) { p = city.drawOrigin(plain) }
            plainInDisc += p.euclideanDistance(to: hotspot) <= 1_500 ? 1 : 0
            plainLength += city.tripLength(from: origin, to: p)
        }
        let a = Double(exactInDisc) / Double(n), b = Double(plainInDisc) / Double(n)
        let se = (2 * b * (1 - b) / Double(n)).squareRoot()
        #expect(abs(a - b) < 4 * se, "share in the hotspot: banded draw \(a), plain rejection \(b), 4 SE = \(4 * se)")
        #expect(abs(exactLength - plainLength) / plainLength < 0.02, "mean trip \(exactLength / Double(n)) vs \(plainLength / Double(n)) m")
    }

    @Test("nearest-idle sends the nearest of n uniform taxis: mean pickup distance matches the closed form")
    func nearestOfUniformTaxisMatchesTheClosedForm() throws {
        // A request at the centre of an L × L city and n taxis uniform in it: for r ≤ L/2 the disc of
        // radius r lies inside the city, so P(D > r) = (1 − πr²/L²)^n; P(D > L/2) = (1 − π/4)^n ≈ 4e−14
        // for n = 20, so E[D] = ∫₀^{L/2} (1 − πr²/L²)^n dr to double precision.
        let side = 4000.0, n = 20, trials = 3000
        let scenario = try SimulationRunTests.scenario("smoke.yaml", ["city.metric=euclidean", "city.detour_factor=1",
                                                                      "dispatch.policy=nearest-idle"])
        let city = try CityModel(scenario: scenario)
        let core = try scenario.makeDispatchCore(city: city)
        let random = RandomStream(name: "fleet", seed: 9, replication: 0)
        var time = 0.0
        func handle(_ command: Command) throws -> [Effect] {
            time += 1
            return try core.handle(command, at: time)
        }
        for d in 0..<n { _ = try handle(.addDriver(DriverID(d), taxiCode: "T\(d)")) }
        let centre = Position(x: side / 2, y: side / 2)
        var distances: [Double] = []
        var notNearest = 0
        for trial in 0..<trials {
            var positions: [Position] = []
            for d in 0..<n {
                let p = city.drawUniform(random)
                positions.append(p)
                _ = try handle(.startShift(DriverID(d), at: p))
                _ = try handle(.setAvailable(DriverID(d), true))
            }
            let request = RequestID(trial)
            let effects = try handle(.requestRide(request, customer: CustomerID(trial), origin: centre,
                                                  destination: Position(x: 100, y: 100), patience: 0))
            let offered = effects.compactMap { effect -> DriverID? in
                if case .offer(let driver, _, _) = effect { return driver } else { return nil }
            }
            let driver = try #require(offered.first)
            let distance = positions[driver.rawValue].euclideanDistance(to: centre)
            if distance > positions.map({ $0.euclideanDistance(to: centre) }).min()! + 1e-9 { notNearest += 1 }
            distances.append(distance)
            _ = try handle(.cancel(request, by: CustomerID(trial)))
            for d in 0..<n { _ = try handle(.endShift(DriverID(d))) }
        }
        #expect(notNearest == 0, "offers that skipped a nearer idle taxi")
        var expected = 0.0, secondMoment = 0.0
        let steps = 20_000, h = side / 2 / Double(steps)
        for i in 0..<steps {
            let r = (Double(i) + 0.5) * h, survival = pow(1 - Double.pi * r * r / (side * side), Double(n))
            expected += survival * h
            secondMoment += 2 * r * survival * h
        }
        let mean = distances.reduce(0, +) / Double(trials)
        let se = ((secondMoment - expected * expected) / Double(trials)).squareRoot()
        #expect(abs(mean - expected) < 3 * se, "mean distance \(mean) m, closed form \(expected) ± \(3 * se)")
    }
}
