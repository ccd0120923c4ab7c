import Testing
@testable import CitySim

@Suite("Core timers parked behind the model's own events")
struct ParkedTimerTests {
    static let cases: [(file: String, overrides: [String])] = [
        ("smoke.yaml", []),
        // D9 revocations (noisy drives), answers late in the offer's minute, declines and silent drivers.
        ("rush-hour.yaml", ["fleet.scale=0.1", "demand.scale=0.1", "duration_hours=10", "drivers.travel_time_cv=0.6",
                            "dispatch.offer_timeout_s=25", "drivers.accept_probability=0.6"]),
        ("smoke.yaml", ["dispatch.policy=batch"]),
    ]

    @Test("parking changes no ride, driver or figure, only the number of events", arguments: 0..<cases.count)
    func parkingChangesNothingButTheEventCount(index: Int) throws {
        let scenario = try SimulationRunTests.scenario(Self.cases[index].file, Self.cases[index].overrides)
        let parked = try CitySimulation(scenario: scenario, seed: 3).run()
        let plain = try CitySimulation(scenario: scenario, seed: 3)
        plain.parksTimers = false
        let scheduled = try plain.run()
        #expect(ResultWriter.ridesCSV(parked) == ResultWriter.ridesCSV(scheduled))
        #expect(ResultWriter.driversCSV(parked) == ResultWriter.driversCSV(scheduled))
        var same = parked.summary.withoutTimings, other = scheduled.summary.withoutTimings
        #expect(same.engine.events < other.engine.events)
        same.engine.events = 0
        other.engine.events = 0
        #expect(same == other)
    }

    @Test("an offer whose parked timeout lost its answer still times out")
    func aVoidedAnswerStillLetsTheOfferTimeOut() throws {
        let simulation = try CitySimulation(scenario: try SimulationRunTests.scenario("smoke.yaml"), seed: 3)
        try simulation.begin()
        var voided: Int?
        while try simulation.step() {
            guard voided == nil,
                  let d = simulation.drivers.indices.first(where: { simulation.drivers[$0].parked?.settler == .answer })
            else { continue }
            // The driver's answer becomes void (as a model change in the driver's clockwork would make it):
            // only the released timeout can now end the offer.
            voided = Int(simulation.drivers[d].parked!.timer.request)
            simulation.drivers[d].generation &+= 1
        }
        let request = try #require(voided)
        #expect(simulation.rides[request].timeouts == 1)
        #expect(simulation.rides[request].offers >= 2, "the request passes on to another taxi after the timeout")
        #expect(simulation.rides[request].outcome != .pending)
    }
}
