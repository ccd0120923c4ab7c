import Foundation
import Testing
@testable import CitySim

@Suite("Simulation runs")
struct SimulationRunTests {
    static func scenario(_ name: String, _ overrides: [String] = []) throws -> Scenario {
        try Scenario.load(path: scenariosDirectory.appendingPathComponent(name).path, overrides: overrides)
    }

    @Test("the same scenario and seed give byte-identical rides.csv and equal summaries")
    func runsAreDeterministic() throws {
        let scenario = try Self.scenario("smoke.yaml")
        let first = try CitySimulation(scenario: scenario, seed: 7).run()
        let second = try CitySimulation(scenario: scenario, seed: 7).run()
        #expect(ResultWriter.ridesCSV(first) == ResultWriter.ridesCSV(second))
        #expect(ResultWriter.driversCSV(first) == ResultWriter.driversCSV(second))
        #expect(first.summary.withoutTimings == second.summary.withoutTimings)
        #expect(try ResultWriter.json(first.summary.withoutTimings) == ResultWriter.json(second.summary.withoutTimings))
    }

    @Test("a different seed or replication gives a different run")
    func seedsAndReplicationsDiffer() throws {
        let scenario = try Self.scenario("smoke.yaml")
        let base = try CitySimulation(scenario: scenario, seed: 7).run()
        let otherSeed = try CitySimulation(scenario: scenario, seed: 8).run()
        let otherReplication = try CitySimulation(scenario: scenario, seed: 7, replication: 1).run()
        #expect(ResultWriter.ridesCSV(base) != ResultWriter.ridesCSV(otherSeed))
        #expect(ResultWriter.ridesCSV(base) != ResultWriter.ridesCSV(otherReplication))
    }

    @Test("every request ends in exactly one outcome: generated = served + rejected + cancelled + expired + pending",
          arguments: ["smoke.yaml", "seeds-reference.yaml", "one-zone-erlang.yaml"])
    func requestsAreConserved(file: String) throws {
        let simulation = try CitySimulation(scenario: try Self.scenario(file, ["duration_hours=6"]))
        simulation.checksInvariants = true
        simulation.invariantCheckInterval = 97
        let summary = try simulation.run().summary
        let r = summary.requests
        #expect(r.generated > 0)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
    }

    @Test("the core's invariants hold through a day with declines, silent drivers, breaks and drift (checked every 7 events)")
    func invariantsHoldThroughABusyDay() throws {
        let simulation = try CitySimulation(scenario: try Self.scenario("rush-hour.yaml",
            ["fleet.scale=0.1", "demand.scale=0.1", "duration_hours=10"]))
        simulation.checksInvariants = true
        simulation.invariantCheckInterval = 7
        let result = try simulation.run()
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
        #expect(result.summary.offers.declined > 0)
        #expect(result.summary.offers.timedOut > 0)
        #expect(result.summary.fairness.fifoViolations == 0)  // ZoneFIFO: D15, by the simulator's own check
        #expect(result.summary.fairness.fifoOffersChecked > 0)
    }

    @Test("each policy runs the same day and conserves requests", arguments: ["zone-fifo", "nearest-idle", "batch"])
    func everyPolicyRuns(policy: String) throws {
        let simulation = try CitySimulation(scenario: try Self.scenario("smoke.yaml", ["dispatch.policy=\(policy)", "duration_hours=1"]))
        simulation.checksInvariants = true  // after every event
        let summary = try simulation.run().summary
        let r = summary.requests
        #expect(summary.policy == policy)
        #expect(r.served > 0)
        #expect(r.generated == r.served + r.rejected + r.cancelled + r.expired + r.pendingAtEnd)
        #expect(simulation.invariantProblems.isEmpty, "\(simulation.invariantProblems.prefix(5))")
    }

    @Test("reservations are served around their meeting time")
    func reservationsAreServed() throws {
        let summary = try CitySimulation(scenario: try Self.scenario("seeds-reference.yaml", ["duration_hours=12"])).run().summary
        let booked = summary.reservations
        #expect(booked.made > 0)
        #expect(booked.servedOnTime > booked.servedLate)
    }
}

@Suite("Common random numbers")
struct CommonRandomNumbersTests {
    @Test("the same seed gives the same customers whatever the fleet size or policy")
    func demandIsIndependentOfTheFleet() throws {
        let path = scenariosDirectory.appendingPathComponent("smoke.yaml").path
        func customers(_ overrides: [String]) throws -> [String] {
            let result = try CitySimulation(scenario: try Scenario.load(path: path, overrides: overrides), seed: 3).run()
            return result.rides.map { "\($0.requestedAt) \($0.originX) \($0.originY) \($0.destinationX) \($0.destinationY) \($0.kind)" }
        }
        let base = try customers([])
        #expect(try customers(["fleet.scale=0.5"]) == base)
        #expect(try customers(["dispatch.policy=nearest-idle", "drivers.accept_probability=0.5"]) == base)
    }
}

@Suite("Replications")
struct ReplicationTests {
    @Test("replications are summarized by their mean and a Student-t 95 % interval")
    func replicationSummaryHasMeansAndIntervals() throws {
        let path = scenariosDirectory.appendingPathComponent("smoke.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["duration_hours=1"])
        let summaries = try (0..<4).map { try CitySimulation(scenario: scenario, replication: $0).run().summary }
        let aggregate = ReplicationSummary(summaries)
        let waits = summaries.map(\.waitS.p90)
        let mean = waits.reduce(0, +) / 4
        let sd = (waits.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 3).squareRoot()
        let estimate = try #require(aggregate.metrics["wait_s.p90"])
        #expect(aggregate.replications == 4)
        #expect(abs(estimate.mean - mean) < 1e-9)
        #expect(abs(estimate.ci95HalfWidth - 3.182446305284263 * sd / 2) < 1e-6)  // t(0.975, 3) = 3.1824
        #expect(estimate.ci95HalfWidth > 0)
    }
}
