import Foundation
import Testing
@testable import CitySim

@Suite("Helper threads beside the loop: customers drawn ahead, the zone queues' records kept aside")
struct HelperThreadTests {
    static let cases: [(file: String, overrides: [String])] = [
        ("smoke.yaml", []),
        // Repeat customers (D12), reservations, cancellations; several thousand customers, so the loop waits for
        // blocks, the producer waits for room and blocks are reused.
        ("rush-hour.yaml", ["fleet.scale=0.3", "demand.scale=0.5"]),
        // Hotspots and a trip-length band: destinations drawn by rejection, several places draws per customer.
        ("city-scale.yaml", ["fleet.scale=0.01", "demand.scale=0.01", "duration_hours=8"]),
        // Nearest-idle skips queued taxis (FIFO violations to count), and declines and timeouts exclude taxis
        // from requests and give places back: every kind of note the queue records' helper applies.
        ("rush-hour.yaml", ["fleet.scale=0.3", "demand.scale=0.5", "dispatch.policy=nearest-idle"]),
    ]

    @Test("helper threads change no ride, driver or figure", arguments: 0..<cases.count)
    func helperThreadsChangeNothing(index: Int) throws {
        let scenario = try SimulationRunTests.scenario(Self.cases[index].file, Self.cases[index].overrides)
        let aheadRun = try CitySimulation(scenario: scenario, seed: 5)
        let ahead = try aheadRun.run()
        let inLoopRun = try CitySimulation(scenario: scenario, seed: 5)
        inLoopRun.usesHelperThreads = false
        let inLoop = try inLoopRun.run()
        #expect(aheadRun.customerFeed != nil, "the run drew its customers ahead")
        #expect(inLoopRun.customerFeed == nil)
        #expect(ahead.rides.count > 0)
        #expect(ResultWriter.ridesCSV(ahead) == ResultWriter.ridesCSV(inLoop))
        #expect(ResultWriter.driversCSV(ahead) == ResultWriter.driversCSV(inLoop))
        #expect(ahead.summary.withoutTimings == inLoop.summary.withoutTimings)
        if index == 3 {
            let fairness = ahead.summary.fairness
            #expect(fairness.fifoViolations > 0 && fairness.fifoOffersChecked > fairness.fifoViolations,
                    "the order check counts violations, so the comparison above covers them")
            #expect(ahead.rides.contains { $0.declines + $0.timeouts > 0 }, "offers were declined or timed out")
        }
        if index == 1 {
            #expect(ahead.rides.count > 5 * CustomerFeed.blockSize)
            #expect(!ahead.summary.fairness.byShiftZone.isEmpty, "the stints summed aside make fairness figures")
        }
    }

    @Test("a grid run starts both helpers, and the stints come home when its books close")
    func aGridRunStartsBothHelpers() throws {
        let simulation = try CitySimulation(scenario: try SimulationRunTests.scenario(Self.cases[1].file, Self.cases[1].overrides),
                                            seed: 5)
        try simulation.begin()
        #expect(simulation.customerFeed != nil && simulation.queueRecordsAside != nil)
        while try simulation.step() {}
        simulation.closeBooks()
        #expect(simulation.queueRecordsAside == nil)
        #expect(simulation.queueStints.kept.cells.count + simulation.queueStints.closing(at: simulation.horizon).cells.count > 0)
    }

    #if os(Linux)
    @Test("the helper threads carry their names in the kernel, so top -H and perf tell them apart")
    func theHelperThreadsAreNamedForTheKernel() throws {
        let simulation = try CitySimulation(scenario: try SimulationRunTests.scenario(Self.cases[1].file, Self.cases[1].overrides),
                                            seed: 5)
        try simulation.begin()  // the producer fills its blocks ahead and waits; the stints helper waits for notes
        defer { simulation.customerFeed?.stop(); simulation.queueRecordsAside?.stop() }
        let wanted: Set = [CustomerFeed.threadName, QueueRecordsAside.threadName]
        var names = Set<String>()
        for _ in 0..<200 where !wanted.isSubset(of: names) {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            names = Set(tasks.compactMap {
                try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            })
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(wanted.isSubset(of: names), "threads: \(names.sorted())")
    }
    #endif

    @Test("a run with planner users or real demand draws its customers in the loop")
    func plannerAndReplayRunsDrawInTheLoop() throws {
        for (file, overrides) in [("calendar-day.yaml", ["duration_hours=2"]), ("trip-replay.yaml", [String]())] {
            let scenario = try SimulationRunTests.scenario(file, overrides)
            let simulation = try CitySimulation(scenario: scenario, seed: 5)
            try simulation.begin()
            #expect(simulation.customerFeed == nil, "\(file)")
        }
    }

    @Test("a run that fails stops its helpers, though the simulation is kept")
    func aFailedRunStopsItsHelpers() throws {
        let scenario = try TripPlaceTests.unreachableBandScenario()
        let simulation = try CitySimulation(scenario: scenario)
        #expect(throws: TripLengthError.self) { try simulation.run() }
        let stints = try #require(simulation.queueRecordsAside, "the failed run did not close its books")
        #expect(stints.helperExited(within: .seconds(30)), "the stints' thread still waits for notes")
    }

    @Test("a simulation dropped before its horizon stops its helpers")
    func aDroppedSimulationStopsItsHelpers() throws {
        weak var abandoned: CustomerFeed?
        weak var abandonedStints: QueueRecordsAside?
        do {
            // 18,000 customers: the producer is still drawing, or waiting for room, when the simulation goes.
            let simulation = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml"), seed: 5)
            try simulation.begin()
            for _ in 0..<100 { _ = try simulation.step() }
            abandoned = simulation.customerFeed
            abandonedStints = simulation.queueRecordsAside
            #expect(abandoned != nil && abandonedStints != nil)
        }
        // The producer, blocked with its blocks drawn ahead, and the stints' helper, waiting for notes, exit
        // once told to stop and release what they hold.
        for _ in 0..<3_000 where abandoned != nil || abandonedStints != nil { usleep(10_000) }
        #expect(abandoned == nil, "the producer thread still holds the feed")
        #expect(abandonedStints == nil, "the stints' thread still holds its notes")
    }
}
