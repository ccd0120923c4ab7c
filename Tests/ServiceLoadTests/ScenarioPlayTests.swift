import CitySim
import Testing
@testable import ServiceLoad

/// What the load generator plays comes from the scenario's own demand and shift models.
@Suite struct ScenarioPlayTests {
    static let yaml = """
        name: load-test
        seed: 3
        duration_hours: 1
        city: { width_km: 4, height_km: 4, zone: { area_km2: 2 }, metric: manhattan, detour_factor: 1.2, speed_kmh: 30 }
        demand: { requests_per_hour: 600, cancellation: { probability: 0.2, mean_s: 60 } }
        fleet: { shifts: [ { name: day, start: "00:00", end: "24:00", taxis: 5 } ] }
        dispatch: { policy: zone-fifo }
        """

    @Test func theSameSeedPlaysTheSameCustomersAndFleet() throws {
        let scenario = try Scenario.load(yaml: Self.yaml, file: "load-test.yaml")
        let a = try ScenarioPlay(scenario: scenario, hours: 0.5), b = try ScenarioPlay(scenario: scenario, hours: 0.5)
        #expect(a.requests == b.requests)
        #expect(a.startPositions == b.startPositions)
        #expect(try ScenarioPlay(scenario: scenario, seed: 4, hours: 0.5).requests != a.requests)
    }

    @Test func requestsAreOrderedWithinTheHorizonAndTheRosterIsTheFleet() throws {
        let play = try ScenarioPlay(scenario: try Scenario.load(yaml: Self.yaml, file: "load-test.yaml"), hours: 0.5)
        #expect(play.horizon == 1800)
        #expect(play.requests.count > 200 && play.requests.count < 400)  // 600/h for half an hour
        #expect(zip(play.requests, play.requests.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(play.requests.allSatisfy { $0.time >= 0 && $0.time < 1800 })
        #expect(play.requests.contains { $0.cancelAt != nil })
        #expect(play.roster.count == 5)
        #expect(play.startPositions.allSatisfy { $0.x >= 0 && $0.x <= 4000 && $0.y >= 0 && $0.y <= 4000 })
    }

    @Test func theTimelineMapsSimulatedSecondsToCompressedWallTime() {
        let timeline = ScenarioTimeline(speed: 60, serviceStart: 1_000)
        #expect(timeline.instant(of: 120) - timeline.start == .seconds(2))
        #expect(timeline.serviceTime(of: 120) == 1_120)
    }
}
