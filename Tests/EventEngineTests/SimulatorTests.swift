import Testing
import EventEngine

@Suite struct SimulatorTests {
    @Test func stepRunsOneEventAndAdvancesTheClock() throws {
        var sim = Simulator<String>()
        try sim.schedule("b", at: 2)
        try sim.schedule("a", at: 1)
        var seen: [String] = []
        #expect(sim.step { _, event in seen.append(event) })
        #expect(seen == ["a"] && sim.now == 1 && sim.peekTime == 2)
    }

    @Test func stepOnAnEmptySimulatorReturnsFalse() {
        var sim = Simulator<Int>(startTime: 4)
        #expect(!sim.step { _, _ in Issue.record("no event expected") })
        #expect(sim.now == 4)
    }

    @Test func handlersScheduleFollowUpEvents() throws {
        var sim = Simulator<Int>()
        try sim.schedule(0, at: 1)
        var times: [Double] = []
        let handled = try sim.run(until: 5) { sim, n in
            times.append(sim.now)
            try sim.schedule(n + 1, after: 1)
        }
        #expect(handled == 4)
        #expect(times == [1, 2, 3, 4])
    }

    @Test func runUntilLeavesEventsAtTheEndTimePendingAndSetsTheClock() throws {
        var sim = Simulator<String>()
        try sim.schedule("before", at: 9.5)
        try sim.schedule("at end", at: 10)
        var seen: [String] = []
        sim.run(until: 10) { _, event in seen.append(event) }
        #expect(seen == ["before"])
        #expect(sim.now == 10 && sim.peekTime == 10)
    }

    @Test func runWithoutEndTimeDrainsAllEvents() throws {
        var sim = Simulator<Int>()
        for t in [3.0, 1, 2] { try sim.schedule(Int(t), at: t) }
        var seen: [Int] = []
        #expect(sim.run { _, n in seen.append(n) } == 3)
        #expect(seen == [1, 2, 3] && sim.now == 3)
    }

    @Test func handlerErrorsPropagateAndStopTheRun() throws {
        struct Stop: Error {}
        var sim = Simulator<Int>()
        for t in 1...3 { try sim.schedule(t, at: Double(t)) }
        #expect(throws: Stop.self) {
            try sim.run(until: 10) { _, n throws(Stop) in if n == 2 { throw Stop() } }
        }
        #expect(sim.now == 2 && sim.peekTime == 3)
    }
}
