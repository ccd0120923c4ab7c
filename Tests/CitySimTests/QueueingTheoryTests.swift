import Foundation
import Testing
@testable import CitySim

/// The one-zone validation scenario is a textbook queue: instant pickup,
/// exponential ride times, Poisson arrivals, c identical taxis. These tests
/// hold the simulator to Erlang's formulas and to Little's law over long runs.
@Suite("Queueing theory")
struct QueueingTheoryTests {
    static let taxis = 20
    static let offeredLoad = 100.0 / 6  // 100 requests/h × 600 s mean ride = 16.67 Erlang

    /// Erlang B by the stable recurrence B(k) = A·B(k−1) / (k + A·B(k−1)).
    static func erlangB(servers c: Int, load a: Double) -> Double {
        var b = 1.0
        for k in 1...c { b = a * b / (Double(k) + a * b) }
        return b
    }

    /// Erlang C from Erlang B: C = B / (1 − (A/c)(1 − B)).
    static func erlangC(servers c: Int, load a: Double) -> Double {
        let b = erlangB(servers: c, load: a)
        return b / (1 - (a / Double(c)) * (1 - b))
    }

    static func run(hours: Int, overrides: [String] = []) throws -> RunResult {
        let path = scenariosDirectory.appendingPathComponent("one-zone-erlang.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["duration_hours=\(hours)"] + overrides)
        return try CitySimulation(scenario: scenario).run()
    }

    @Test("with zero patience the share of rejected requests is Erlang B (M/M/c/c)")
    func blockingMatchesErlangB() throws {
        let result = try Self.run(hours: 600)
        let r = result.summary.requests
        let blocked = Double(r.rejected) / Double(r.generated)
        let expected = Self.erlangB(servers: Self.taxis, load: Self.offeredLoad)  // 0.0785
        #expect(r.generated > 55_000)
        #expect(abs(blocked - expected) < 0.006, "blocked \(blocked), Erlang B \(expected)")
        // Carried load A(1 − B) over c taxis is the utilization.
        let utilization = Self.offeredLoad * (1 - expected) / Double(Self.taxis)
        #expect(abs(result.summary.fleet.utilization - utilization) < 0.01)
    }

    @Test("with infinite patience the share that waits and the mean wait are Erlang C (M/M/c)")
    func waitingMatchesErlangC() throws {
        let result = try Self.run(hours: 600, overrides: ["demand.patience={kind: infinite}"])
        let served = result.rides.filter { $0.outcome == "served" && $0.requestedAt >= 3600 }
        let waits = served.compactMap(\.waitS)
        let c = Self.erlangC(servers: Self.taxis, load: Self.offeredLoad)  // 0.338
        let waited = Double(waits.filter { $0 > 1e-9 }.count) / Double(waits.count)
        #expect(abs(waited - c) < 0.03, "waited \(waited), Erlang C \(c)")
        // Mean wait in queue: C / (cμ − λ), μ = 1/600 s, λ = 100/3600 s.
        let expectedWait = c / (Double(Self.taxis) / 600 - 100.0 / 3600)  // ≈ 61 s
        let meanWait = waits.reduce(0, +) / Double(waits.count)
        #expect(abs(meanWait - expectedWait) / expectedWait < 0.15, "mean wait \(meanWait), Erlang C \(expectedWait)")
        #expect(result.summary.requests.rejected == 0)
    }

    @Test("Little's law: busy taxis on average equal throughput times mean ride time")
    func littlesLawHoldsForTheFleet() throws {
        let result = try Self.run(hours: 300)
        let rides = result.rides.compactMap { r in r.dropoffAt.flatMap { d in r.pickupAt.map { d - $0 } } }
        let meanRide = rides.reduce(0, +) / Double(rides.count)
        let hours = result.summary.simulatedHours
        let arrivalRate = Double(rides.count) / (hours * 3600)           // λ of rides, per second
        let busyTaxis = result.summary.fleet.utilization * Double(Self.taxis)  // L, time average
        #expect(abs(busyTaxis - arrivalRate * meanRide) / busyTaxis < 0.02, "L \(busyTaxis), λW \(arrivalRate * meanRide)")
        #expect(abs(meanRide - 600) < 15)  // the exponential service time the scenario states
    }
}
