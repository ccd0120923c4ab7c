import Foundation
import Testing
@testable import CitySim

@Suite("Fleet planning")
struct SweepFleetPlanTests {
    @Test("three fixed 8-hour shifts cover a three-level day exactly")
    func shiftCoverFixedStarts() throws {
        var need = Array(repeating: 2, count: 24)        // night 22–06: 2
        for h in 6..<14 { need[h] = 5 }                   // early 06–14: 5
        for h in 14..<22 { need[h] = 3 }                  // late 14–22: 3
        let plan = try ShiftPlan(need: need, shiftHours: 8, starts: [6, 14, 22])
        #expect(plan.taxisByStart == [5, 3, 2])
        #expect(plan.coverage == need)
        #expect(plan.total == 10 && plan.lowerBound == 10)
    }

    @Test("free starts: a need that wraps midnight is one shift, and a 12-hour need takes two")
    func shiftCoverFreeStarts() throws {
        var wrap = Array(repeating: 0, count: 24)
        for h in [20, 21, 22, 23, 0, 1, 2, 3] { wrap[h] = 4 }
        let night = try ShiftPlan(need: wrap, shiftHours: 8)
        #expect(night.total == 4)
        #expect(night.taxisByStart[20] == 4)
        var day = Array(repeating: 0, count: 24)
        for h in 8..<20 { day[h] = 1 }
        let plan = try ShiftPlan(need: day, shiftHours: 8)
        #expect(plan.total == 2)
        #expect((0..<24).allSatisfy { plan.coverage[$0] >= day[$0] })
    }

    @Test("an hour no allowed shift covers is an error")
    func uncoverableHour() {
        var need = Array(repeating: 0, count: 24)
        need[3] = 1
        #expect(throws: ShiftPlan.Uncoverable.self) { try ShiftPlan(need: need, shiftHours: 2, starts: [6, 14]) }
    }

    @Test("targets and shares parse as the command line writes them")
    func parsing() {
        #expect(FleetPlanner.parseTarget("p90 wait <= 300 s") == 300)
        #expect(FleetPlanner.parseTarget("p90<=5 min") == 300)
        #expect(FleetPlanner.parseTarget("240") == 240)
        #expect(FleetPlanner.parseTarget("fast") == nil)
        #expect(FleetPlanner.parseShare("2%") == 0.02)
        #expect(FleetPlanner.parseShare("0.05") == 0.05)
        #expect(FleetPlanner.parseShare("120%") == nil)
    }

    @Test("taxis on shift by hour follow the shifts at the hour's midpoint, scaled")
    func taxisOnShift() throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent("seeds-reference.yaml").path)
        let taxis = FleetPlanner.taxisOnShift(scenario.fleet, scale: 0.5)
        #expect(taxis == Array(repeating: 100, count: 24))
    }

    @Test("a plan on the smoke scenario needs more taxis for a tighter target, and none in hours without requests")
    func planOnSmoke() throws {
        let scenario = try Scenario.load(path: scenariosDirectory.appendingPathComponent("smoke.yaml").path,
                                         overrides: ["duration_hours=2", "warmup_hours=0"])
        func plan(_ target: Double) throws -> FleetPlan {
            let planner = FleetPlanner(scenario: scenario, p90WaitTarget: target, maxLostShare: 0.05, replications: 2,
                                       coarseScales: [0.5, 1, 1.5], fineStep: 0.25)
            return try FleetPlan(planner: planner, evaluations: try planner.search(jobs: 2), shiftHours: 8, shiftStarts: Array(0..<24))
        }
        let loose = try plan(600), tight = try plan(200)
        #expect(loose.hours[5].taxisNeeded == 0 && loose.hours[5].met)
        #expect(tight.hours[1].taxisNeeded >= loose.hours[1].taxisNeeded)
        #expect((0..<24).allSatisfy { loose.shiftPlan.coverage[$0] >= loose.hours[$0].taxisNeeded })
    }
}
