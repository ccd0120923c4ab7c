import DispatchCore
import Foundation
import Testing
@testable import CitySim

/// `demand.scale` on a replay: thinning below 1, bootstrap above, from the seed (`ReplaySchedule`).
@Suite struct ReplayResamplingTests {
    /// 10,000 zone-ID trips, one every 8 s from 00:10 (the last at 22:23:12), so no jittered copy leaves the day.
    static func scenario() throws -> Scenario {
        var csv = "t,PU,DO\n"
        for i in 0..<10_000 { csv += "\(600 + i * 8),\(i % 12),\((i * 7) % 12)\n" }
        return try ReplayFixture.load(ReplayFixture.yaml(demand: ReplayFixture.zoneDemand("jitter_s: 120")), files: ["trips.csv": csv])
    }

    static func schedule(_ scenario: Scenario, scale: Double, replication: Int = 0) throws -> ReplaySchedule {
        let layout = try scenario.city.geometry().layout
        return ReplaySchedule(replay: try #require(scenario.demand.trips), scale: scale, horizon: 86_400,
                              zones: ZonePoints(layout: layout),
                              RandomStream(name: RealDemand.replayStreamName, seed: 5, replication: replication))
    }

    // Tolerance: 4 standard deviations of the count's distribution (a false alarm about once in 16,000
    // seeds; the seed is fixed, so the test is deterministic).

    @Test("k < 1 keeps each trip with probability k: count within 4 sd of Binomial(10,000, k)", arguments: [0.3, 0.75])
    func thinningKeepsAboutKOfTheTrips(k: Double) throws {
        let trips = try Self.schedule(try Self.scenario(), scale: k).trips
        let sd = (10_000 * k * (1 - k)).squareRoot()
        #expect(abs(Double(trips.count) - 10_000 * k) <= 4 * sd, "\(trips.count) kept")
        // Kept trips keep their trace time: every time is a multiple of 8 s.
        #expect(trips.allSatisfy { $0.time.truncatingRemainder(dividingBy: 8) == 0 })
    }

    @Test("k > 1 bootstraps: ⌊k⌋ copies plus one with probability k − ⌊k⌋, count within 4 sd of k × trips", arguments: [2.0, 2.5])
    func bootstrapRepeatsAboutKTimes(k: Double) throws {
        let trips = try Self.schedule(try Self.scenario(), scale: k).trips
        let fraction = k - k.rounded(.down)
        let sd = max(1, (10_000 * fraction * (1 - fraction)).squareRoot())
        #expect(abs(Double(trips.count) - 10_000 * k) <= 4 * sd, "\(trips.count) requests")
        // Copies differ from the original by a jitter within ±jitter_s, and the trips stay in time order.
        let originals = trips.filter { $0.time.truncatingRemainder(dividingBy: 8) == 0 }.count
        #expect(abs(originals - 10_000) <= 5)   // only copies jittered onto an exact multiple of 8 s could add
        #expect(zip(trips, trips.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(trips.last!.time < 600 + 10_000 * 8 + 120)
    }

    @Test("the hourly pattern survives resampling: every hour's count is k × the trace's within 4 sd")
    func resamplingKeepsTheHourlyPattern() throws {
        let trips = try Self.schedule(try Self.scenario(), scale: 0.5).trips
        var perHour = Array(repeating: 0, count: 24)
        for trip in trips { perHour[Int(trip.time / 3600)] += 1 }
        for hour in 1..<22 { #expect(abs(Double(perHour[hour]) - 225) <= 4 * (450 * 0.25).squareRoot(), "hour \(hour)") }
    }

    @Test("replications resample differently, the same replication identically")
    func replicationsDiffer() throws {
        let scenario = try Self.scenario()
        let a = try Self.schedule(scenario, scale: 0.5), b = try Self.schedule(scenario, scale: 0.5)
        let c = try Self.schedule(scenario, scale: 0.5, replication: 1)
        #expect(a.trips == b.trips)
        #expect(a.trips.map(\.time) != c.trips.map(\.time))
    }
}
