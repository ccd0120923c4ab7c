import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `fit-demand` and `demand.od_matrix`: a synthetic trace with a known OD matrix by hour is recovered, and a
/// run from the fitted model reproduces its hourly rates and OD split.
@Suite struct ODMatrixFitTests {
    /// The known model: six (origin, destination) pairs of the 12-zone test city; 07–09 a morning matrix,
    /// other hours another; 100 requests/h in 07–09, 40 otherwise.
    static let pairs = [(0, 11), (3, 5), (5, 3), (11, 0), (6, 6), (1, 10)]
    static let morning = [0.40, 0.25, 0.05, 0.05, 0.15, 0.10], otherwise = [0.10, 0.10, 0.30, 0.20, 0.20, 0.10]
    static func isMorning(_ hour: Int) -> Bool { (7...9).contains(hour) }
    static func rate(_ hour: Int) -> Double { isMorning(hour) ? 100 : 40 }
    static let days = 3

    static let demand = ReplayFixture.zoneDemand()

    /// Three days of the known model, drawn from a seeded stream; returns the scenario folder's scenario.
    static func traceScenario() throws -> (scenario: Scenario, csv: String) {
        let random = RandomStream(name: "od-test", seed: 11, replication: 0)
        let morning = try DiscreteDistribution(weights: Self.morning), otherwise = try DiscreteDistribution(weights: Self.otherwise)
        var csv = "t,PU,DO\n"
        for day in 0..<days {
            for hour in 0..<24 {
                var times = (0..<random.poisson(mean: rate(hour))).map { _ in Double(day * 86_400 + hour * 3600) + random.uniform() * 3600 }
                times.sort()
                for t in times {
                    let (o, d) = pairs[(isMorning(hour) ? morning : otherwise).sample(using: random)]
                    csv += "\(t),\(o),\(d)\n"
                }
            }
        }
        return (try ReplayFixture.load(ReplayFixture.yaml(demand: demand), files: ["trips.csv": csv]), csv)
    }

    static func fitted() throws -> ODMatrix {
        let (scenario, _) = try traceScenario()
        let folder = URL(fileURLWithPath: scenario.demand.trips!.trace.file)
        return try ODMatrix.fit(path: folder.path, scenario: scenario, minHourTrips: 10)
    }

    @Test("the fit recovers the known hourly OD matrices: χ² over 24 hours × 6 pairs below its 0.1 % critical value")
    func fitRecoversTheKnownMatrix() throws {
        let model = try Self.fitted()
        #expect(model.days == 3 && model.zones == 12)
        var chiSquare = 0.0
        for hour in 0..<24 {
            #expect(model.hours[hour].matrix == "hour")
            let trips = Double(model.hours[hour].trips)
            for (i, pair) in Self.pairs.enumerated() {
                let expected = trips * (Self.isMorning(hour) ? Self.morning : Self.otherwise)[i]
                let observed = trips * model.probability(origin: pair.0, destination: pair.1, hour: hour)
                chiSquare += (observed - expected) * (observed - expected) / expected
            }
            #expect(model.pairs(atHour: hour).count <= 6)   // no pair the model never makes
        }
        #expect(chiSquare < 173.6, "χ² = \(chiSquare), df = 120")   // χ²(120) at 0.999
    }

    @Test("fitted rates are trips per hour / days: χ² of the counts against the known rates below its 0.1 % value")
    func fitRecoversTheRates() throws {
        let model = try Self.fitted()
        let chiSquare = (0..<24).reduce(0.0) { sum, hour in
            let expected = Self.rate(hour) * Double(Self.days), observed = model.ratePerHour[hour] * Double(Self.days)
            return sum + (observed - expected) * (observed - expected) / expected
        }
        #expect(chiSquare < 51.2, "χ² = \(chiSquare), df = 24")   // χ²(24) at 0.999
        #expect(model.ratePerHour.enumerated().allSatisfy { Double(model.hours[$0.offset].trips) / 3 == $0.element })
    }

    @Test("hours with fewer than min_hour_trips trips fall back to the all-day matrix")
    func sparseHoursUseTheAllDayMatrix() throws {
        let (scenario, _) = try Self.traceScenario()
        let model = try ODMatrix.fit(path: scenario.demand.trips!.trace.file, scenario: scenario, minHourTrips: 200)
        for hour in 0..<24 {
            #expect(model.hours[hour].matrix == (Self.isMorning(hour) ? "hour" : "all-day"), "hour \(hour)")
        }
        #expect(model.pairs(atHour: 3) == model.allDay)
    }

    @Test("a run from the fitted matrix reproduces its hourly rates and its OD split (χ² at 0.1 %)")
    func runFromTheFittedMatrixReproducesIt() throws {
        let model = try Self.fitted()
        let json = String(decoding: try model.json(), as: UTF8.self)
        let scenario = try ReplayFixture.load(ReplayFixture.yaml(demand: "od_matrix: od.json", duration: 72), files: ["od.json": json])
        #expect(scenario.demand.rate(atHour: 8) == model.ratePerHour[8])
        let simulation = try CitySimulation(scenario: scenario, seed: 4)
        _ = try simulation.run()
        var perHour = Array(repeating: 0.0, count: 24), observed = Array(repeating: 0.0, count: 6), expected = observed
        let geometry = simulation.city.geometry
        for ride in simulation.rides {
            let hour = Int(ride.requestedAt / 3600) % 24
            perHour[hour] += 1
            let pair = (try geometry.zone(of: ride.origin).index, try geometry.zone(of: ride.destination).index)
            let i = try #require(Self.pairs.firstIndex { $0 == pair })
            observed[i] += 1
            for (j, p) in Self.pairs.enumerated() { expected[j] += model.probability(origin: p.0, destination: p.1, hour: hour) }
        }
        let rates = (0..<24).reduce(0.0) { s, h in s + pow(perHour[h] - 3 * model.ratePerHour[h], 2) / (3 * model.ratePerHour[h]) }
        #expect(rates < 51.2, "χ² = \(rates), df = 24")           // χ²(24) at 0.999
        let split = (0..<6).reduce(0.0) { s, i in s + pow(observed[i] - expected[i], 2) / expected[i] }
        #expect(split < 20.5, "χ² = \(split), df = 5")            // χ²(5) at 0.999
    }

    @Test("an OD file fitted for another city is refused at load, naming the key")
    func wrongZoneCountIsRefused() throws {
        var model = try Self.fitted()
        model.zones = 49
        let json = String(decoding: try model.json(), as: UTF8.self)
        let error = try #require(ReplayFixture.error(ReplayFixture.yaml(demand: "od_matrix: od.json"), files: ["od.json": json]))
        #expect(error.keyPath == "demand.od_matrix")
        #expect(error.reason.contains("fitted for 49 zones, the city has 12"))
    }
}
