import DispatchCore
import Foundation
import Testing
@testable import CitySim

@Suite("Measurement window and censoring")
struct MeasurementWindowTests {
    /// Busy time of the rides in [from, to) over taxi-time, from rides.csv alone (instant pickup:
    /// a taxi is busy from acceptance to drop-off, or to the horizon when still riding).
    static func utilization(_ result: RunResult, taxis: Int, from: Double, to: Double) -> Double {
        var busy = 0.0
        for ride in result.rides {
            guard let accepted = ride.acceptedAt else { continue }
            let end = ride.dropoffAt ?? to
            busy += max(0, min(end, to) - max(accepted, from))
        }
        return busy / (Double(taxis) * (to - from))
    }

    @Test("utilisation covers the window after the warm-up, like the request figures")
    func utilizationExcludesTheWarmUp() throws {
        let scenario = try SimulationRunTests.scenario("one-zone-erlang.yaml", ["duration_hours=8", "warmup_hours=2"])
        let result = try CitySimulation(scenario: scenario).run()
        let expected = Self.utilization(result, taxis: 20, from: 2 * 3600, to: 8 * 3600)
        #expect(abs(result.summary.fleet.utilization - expected) < 1e-9, "\(result.summary.fleet.utilization) vs \(expected)")
        #expect(result.drivers.allSatisfy { abs($0.shiftHours - 6) < 1e-9 })
    }

    @Test("MAD reassignments count only the window's requests; with no warm-up they are the core's own count")
    func madReassignmentsCoverTheWindow() throws {
        let overrides = ["fleet.scale=0.1", "demand.scale=0.1", "duration_hours=10", "drivers.travel_time_cv=0.6"]
        let whole = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml", overrides + ["warmup_hours=0"]))
        let all = try whole.run().summary.fleet.madReassignments
        #expect(all > 0)
        #expect(all == whole.core.statistics.madReassignments)
        let late = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml", overrides + ["warmup_hours=5"]))
        let windowed = try late.run().summary.fleet.madReassignments
        #expect(windowed < late.core.statistics.madReassignments)
    }

    @Test("rides under way at the end count in the throughput; waits come with the share they describe")
    func censoredRidesAreCountedAndWaitsLabelled() throws {
        // 15 taxis for 16.7 Erlang: the queue grows, so requests are still waiting at the end.
        let scenario = try SimulationRunTests.scenario("one-zone-erlang.yaml", [
            "duration_hours=5", "demand.patience={kind: infinite}",
            "fleet.shifts=[{name: all-day, start: \"00:00\", end: \"24:00\", taxis: 15}]"])
        let result = try CitySimulation(scenario: scenario).run()
        let s = result.summary
        let window = result.rides.filter { $0.requestedAt >= 3600 }
        let pickedUp = window.filter { $0.pickupAt != nil }.count
        #expect(s.requests.underWayAtEnd > 5)
        #expect(s.requests.underWayAtEnd + s.requests.waitingAtEnd == s.requests.pendingAtEnd)
        #expect(abs(s.throughputPerHour * 4 - Double(pickedUp)) < 1e-9)
        let immediate = window.filter { $0.kind == "immediate" }
        #expect(abs(s.waitServedShare - Double(immediate.filter { $0.pickupAt != nil }.count) / Double(immediate.count)) < 1e-12)
        #expect(s.waitServedShare < 1)
        #expect(s.measurement.fromHours == 1 && s.measurement.toHours == 5)
        #expect(s.measurement.openAtEnd.contains("pending_at_end"))
    }
}

@Suite("Fairness and queue order")
struct FairnessTests {
    static let day = ["fleet.scale=0.1", "demand.scale=0.1", "duration_hours=12"]

    @Test("the simulator's own check of queue order finds no violation under zone-fifo, with offers checked")
    func zoneFIFOKeepsTheQueueOrder() throws {
        let summary = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml", Self.day)).run().summary
        #expect(summary.offers.declined > 0 && summary.offers.timedOut > 0)
        #expect(summary.fairness.fifoOffersChecked > 200)
        #expect(summary.fairness.fifoViolations == 0)
    }

    @Test("the queue-order check is independent of the policy: nearest-idle skips queued taxis and is caught")
    func queueOrderCheckCatchesSkips() throws {
        let summary = try CitySimulation(scenario: try SimulationRunTests.scenario("rush-hour.yaml",
            Self.day + ["dispatch.policy=nearest-idle"])).run().summary
        #expect(summary.fairness.fifoViolations > 10)
        #expect(summary.fairness.fifoViolations <= summary.fairness.fifoOffersChecked)
    }

    @Test("fairness per shift counts each driver-shift wholly in the window, and matches its definition")
    func fairnessPerShiftOverCompleteShifts() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml", [
            "duration_hours=30", "warmup_hours=2", "demand.requests_per_hour=120",
            "fleet.shifts=[{name: early, start: \"04:00\", end: \"12:00\", taxis: 10}, {name: late, start: \"12:00\", end: \"20:00\", taxis: 6}]"])
        let sim = try CitySimulation(scenario: scenario)
        let result = try sim.run()
        let byShift = result.summary.fairness.byShift
        #expect(byShift.map(\.shift) == ["early", "late"])
        // Early: 04–12 on day one and day two (28–36 h is cut by the horizon at 30 h); late: 12–20 on day one.
        #expect(byShift.map(\.driverShifts) == [10, 6])
        // Recomputed from rides.csv: rides accepted in 12:00–20:00 by the late drivers, per hour.
        let lateRates = (10..<16).map { d in
            Double(result.rides.filter { $0.driver == d && $0.outcome == "served" && ($0.acceptedAt ?? -1) >= 12 * 3600
                && ($0.acceptedAt ?? .infinity) < 20 * 3600 }.count) / 8
        }
        #expect(abs(byShift[1].jainRidesPerShiftHour - Statistics.jain(lateRates)) < 1e-12)
    }
}
