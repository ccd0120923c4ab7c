import Foundation
import Testing
@testable import CitySim

@Suite("Customers drawn ahead on a second thread")
struct CustomerFeedTests {
    static let cases: [(file: String, overrides: [String])] = [
        ("smoke.yaml", []),
        // Repeat customers (D12), reservations, cancellations; several thousand customers, so the loop waits for
        // blocks, the producer waits for room and blocks are reused.
        ("rush-hour.yaml", ["fleet.scale=0.3", "demand.scale=0.5"]),
        // Hotspots and a trip-length band: destinations drawn by rejection, several places draws per customer.
        ("city-scale.yaml", ["fleet.scale=0.01", "demand.scale=0.01", "duration_hours=8"]),
    ]

    @Test("drawing customers ahead changes no ride, driver or figure", arguments: 0..<cases.count)
    func drawingAheadChangesNothing(index: Int) throws {
        let scenario = try SimulationRunTests.scenario(Self.cases[index].file, Self.cases[index].overrides)
        let aheadRun = try CitySimulation(scenario: scenario, seed: 5)
        let ahead = try aheadRun.run()
        let inLoopRun = try CitySimulation(scenario: scenario, seed: 5)
        inLoopRun.drawsCustomersAhead = false
        let inLoop = try inLoopRun.run()
        #expect(aheadRun.customerFeed != nil, "the run drew its customers ahead")
        #expect(inLoopRun.customerFeed == nil)
        #expect(ahead.rides.count > 0)
        #expect(ResultWriter.ridesCSV(ahead) == ResultWriter.ridesCSV(inLoop))
        #expect(ResultWriter.driversCSV(ahead) == ResultWriter.driversCSV(inLoop))
        #expect(ahead.summary.withoutTimings == inLoop.summary.withoutTimings)
        if index == 1 { #expect(ahead.rides.count > 5 * CustomerFeed.blockSize) }
    }

    @Test("a run with planner users or real demand draws its customers in the loop")
    func plannerAndReplayRunsDrawInTheLoop() throws {
        for (file, overrides) in [("calendar-day.yaml", ["duration_hours=2"]), ("trip-replay.yaml", [String]())] {
            let scenario = try SimulationRunTests.scenario(file, overrides)
            let simulation = try CitySimulation(scenario: scenario, seed: 5)
            try simulation.begin()
            #expect(simulation.customerFeed == nil, "\(file)")
        }
    }

    @Test("a simulation dropped before its horizon stops its feed")
    func aDroppedSimulationStopsItsFeed() throws {
        weak var abandoned: CustomerFeed?
        do {
            // 18,000 customers: the producer is still drawing, or waiting for room, when the simulation goes.
            let simulation = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml"), seed: 5)
            try simulation.begin()
            for _ in 0..<100 { _ = try simulation.step() }
            abandoned = simulation.customerFeed
            #expect(abandoned != nil)
        }
        // The producer, blocked with its blocks drawn ahead, exits once told to stop and releases the feed.
        for _ in 0..<3_000 where abandoned != nil { usleep(10_000) }
        #expect(abandoned == nil, "the producer thread still holds the feed")
    }
}
