import Foundation
import Testing
@testable import CitySim

/// The one-zone validation scenario is a textbook queue: instant pickup, Poisson arrivals,
/// c identical taxis, a stated service-time distribution. These tests hold the simulator to
/// Erlang's formulas. Each estimate comes from independent replications, and its tolerance
/// is 3 standard errors of the mean over them (Student t with 9 degrees of freedom: a
/// correct simulator fails one check with probability ≈ 1.5 %; the seeds are fixed, so a
/// pass is reproducible), so a bias of a few per cent fails.
@Suite("Queueing theory")
struct QueueingTheoryTests {
    static let taxis = 20
    static let arrivalRate = 100.0 / 3600  // λ, per second
    static let meanService = 600.0          // 1/μ, seconds
    static let offeredLoad = 100.0 / 6      // A = λ/μ = 16.67 Erlang
    static let replications = 10
    static let hours = 80

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

    /// Independent replications of the one-zone scenario (warm-up 1 h).
    static func run(_ overrides: [String] = []) throws -> [RunResult] {
        let path = scenariosDirectory.appendingPathComponent("one-zone-erlang.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["duration_hours=\(hours)"] + overrides)
        return try (0..<replications).map { try CitySimulation(scenario: scenario, replication: $0).run() }
    }

    /// Mean over replications and its standard error.
    static func estimate(_ values: [Double]) -> (mean: Double, se: Double) {
        let n = Double(values.count), mean = values.reduce(0, +) / n
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        return (mean, (variance / n).squareRoot())
    }

    /// Expects the replications' mean of `measure` within 3 standard errors of `expected`.
    static func expectNear(_ results: [RunResult], _ expected: Double, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation, _ measure: (RunResult) -> Double) {
        let (mean, se) = estimate(results.map(measure))
        #expect(se > 0, "\(what): no spread over replications", sourceLocation: sourceLocation)
        #expect(abs(mean - expected) < 3 * se, "\(what): \(mean) ± \(se) (1 SE), theory \(expected)",
                sourceLocation: sourceLocation)
    }

    /// Waits of the served immediate requests made after the warm-up.
    static func waits(_ result: RunResult) -> [Double] {
        result.rides.filter { $0.requestedAt >= 3600 }.compactMap(\.waitS)
    }

    static func blocked(_ r: RunResult) -> Double { Double(r.summary.requests.rejected) / Double(r.summary.requests.generated) }

    @Test("zero patience: the share rejected is Erlang B, and utilisation the carried load A(1−B)/c")
    func blockingMatchesErlangB() throws {
        let results = try Self.run()
        let b = Self.erlangB(servers: Self.taxis, load: Self.offeredLoad)  // 0.0785
        Self.expectNear(results, b, "blocking", Self.blocked)
        Self.expectNear(results, Self.offeredLoad * (1 - b) / Double(Self.taxis), "utilisation") { $0.summary.fleet.utilization }
    }

    @Test("Erlang B is insensitive to the service-time distribution: fixed 600 s rides block as often")
    func erlangBIsInsensitive() throws {
        let results = try Self.run(["validation.service_time={kind: fixed, value_s: 600}"])
        Self.expectNear(results, Self.erlangB(servers: Self.taxis, load: Self.offeredLoad), "blocking (M/D/c/c)", Self.blocked)
    }

    @Test("Little's law with an independent L: busy taxis sampled on the hour equal λ·E[S] of the served rides")
    func littlesLawWithSampledOccupancy() throws {
        let results = try Self.run()
        // L: busy taxis seen at each hour tick after the warm-up (the core's count, not the ride records).
        // λ·W: served rides per second times their mean ride time, from the ride records.
        let gaps = results.map { r -> Double in
            let samples = r.summary.perHour.dropFirst(1).map { Double($0.taxisOnShift - $0.taxisAvailable) }
            let occupancy = samples.reduce(0, +) / Double(samples.count)
            let rides = r.rides.filter { $0.requestedAt >= 3600 }.compactMap { r in r.dropoffAt.flatMap { d in r.pickupAt.map { d - $0 } } }
            let throughput = Double(rides.count) / (Double(Self.hours - 1) * 3600)
            return occupancy - throughput * rides.reduce(0, +) / Double(rides.count)
        }
        let (mean, se) = Self.estimate(gaps)
        #expect(abs(mean) < 3 * se + 0.05, "L − λW = \(mean) ± \(se)")
        Self.expectNear(results, Self.offeredLoad * (1 - Self.erlangB(servers: Self.taxis, load: Self.offeredLoad)),
                        "hourly busy taxis") { r in
            let samples = r.summary.perHour.dropFirst(1).map { Double($0.taxisOnShift - $0.taxisAvailable) }
            return samples.reduce(0, +) / Double(samples.count)
        }
    }

    @Test("infinite patience: the share that waits, the mean wait and the wait tail are Erlang C (M/M/c, FIFO)")
    func waitingMatchesErlangC() throws {
        let results = try Self.run(["demand.patience={kind: infinite}"])
        let c = Self.erlangC(servers: Self.taxis, load: Self.offeredLoad)  // 0.338
        let decay = Double(Self.taxis) / Self.meanService - Self.arrivalRate  // cμ − λ, per second
        Self.expectNear(results, c, "P(W > 0)") { r in
            let w = Self.waits(r)
            return Double(w.filter { $0 > 1e-9 }.count) / Double(w.count)
        }
        Self.expectNear(results, c / decay, "mean wait") { r in
            let w = Self.waits(r)
            return w.reduce(0, +) / Double(w.count)
        }
        // P(W > t) = C·e^−(cμ−λ)t depends on serving the queue in order (FIFO); the mean does not.
        for t in [30.0, 90.0, 180.0, 360.0] {
            Self.expectNear(results, c * exp(-decay * t), "P(W > \(Int(t)) s)") { r in
                let w = Self.waits(r)
                return Double(w.filter { $0 > t }.count) / Double(w.count)
            }
        }
        #expect(results.allSatisfy { $0.summary.requests.rejected == 0 })
    }

    @Test("Erlang C is not insensitive: fixed 600 s rides wait clearly less than M/M/c predicts")
    func erlangCDependsOnTheServiceTime() throws {
        let results = try Self.run(["demand.patience={kind: infinite}", "validation.service_time={kind: fixed, value_s: 600}"])
        let c = Self.erlangC(servers: Self.taxis, load: Self.offeredLoad)
        let mmc = c / (Double(Self.taxis) / Self.meanService - Self.arrivalRate)
        let (mean, se) = Self.estimate(results.map { r in
            let w = Self.waits(r)
            return w.reduce(0, +) / Double(w.count)
        })
        // Deterministic service roughly halves the queueing delay ((1 + cs²)/2, Allen–Cunneen).
        #expect(mean + 3 * se < mmc, "M/D/c mean wait \(mean) ± \(se) vs M/M/c \(mmc)")
        #expect(mean > 0.3 * mmc && mean < 0.7 * mmc, "M/D/c mean wait \(mean) vs half of M/M/c \(mmc / 2)")
    }
}
