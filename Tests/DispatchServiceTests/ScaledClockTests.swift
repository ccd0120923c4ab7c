import CitySim
import Foundation
import Synchronization
import Testing
@testable import DispatchService

/// `ScaledClock` and the config keys a load test sets (`clock_speed`, `login_burst_per_address`).
@Suite struct ScaledClockTests {
    final class Wall: Sendable {
        let time = Mutex(1_000.0)
        func advance(_ s: Double) { time.withLock { $0 += s } }
        func read() -> Double { time.withLock { $0 } }
    }

    @Test func runsSpeedTimesFasterThanTheWallClock() {
        let wall = Wall()
        let clock = ScaledClock(speed: 60, wall: wall.read)
        #expect(clock.now() == 1_000)
        wall.advance(2)
        #expect(clock.now() == 1_120)
        #expect(clock.rate == 60)
    }

    @Test func resumesFromALaterTimeButNeverRunsBackwards() {
        let wall = Wall()
        let clock = ScaledClock(speed: 10, wall: wall.read)
        clock.resume(atLeast: 5_000)  // a restart: the log's last command is ahead of the wall clock
        #expect(clock.now() == 5_000)
        wall.advance(1)
        #expect(clock.now() == 5_010)
        clock.resume(atLeast: 100)  // earlier: ignored
        #expect(clock.now() == 5_010)
    }

    @Test func theWallAndManualClocksRunAtRateOne() {
        #expect(SystemClock().rate == 1)
        #expect(ManualClock().rate == 1)
    }

    @Test func configReadsClockSpeedAndLoginBurst() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("service.yaml")
        try """
            scenario: smoke.yaml
            database: x.sqlite
            host: 127.0.0.1
            port: 8081
            admin: { email: a@b.c, password: long-enough }
            clock_speed: 60
            login_burst_per_address: 5000
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let config = try ServiceConfig.load(path: path)
        #expect(config.clockSpeed == 60)
        #expect(config.loginBurstPerAddress == 5000)
    }

    @Test func configRefusesANonPositiveClockSpeed() {
        var config = ServiceConfig(scenario: "s.yaml", database: "d", admin: .init(email: "a@b.c", password: "long-enough"))
        config.clockSpeed = 0
        #expect(throws: ConfigError.self) { try config.validate() }
        config.clockSpeed = 2
        config.loginBurstPerAddress = 0
        #expect(throws: ConfigError.self) { try config.validate() }
    }

    @Test func aScaledServiceFiresAnOfferTimeoutSpeedTimesSooner() async throws {
        // D4 at 600×: the minute's offer timeout passes in 0.1 s of real time and the offer moves on.
        let scenario = try Scenario.load(yaml: ServiceFixture.scenarioYAML, file: "service-test.yaml")
        let host = try await DispatchHost(store: InMemoryDispatchStore(), clock: ScaledClock(speed: 600)) {
            try scenario.makeDispatchCore()
        }
        for (id, x) in [(1, 500.0), (2, 600.0)] {
            try await host.execute(.addDriver(.init(id), taxiCode: "T\(id)"))
            try await host.execute(.startShift(.init(id), at: .init(x: x, y: x)))
            try await host.execute(.setAvailable(.init(id), true))
        }
        _ = try await host.requestRide(customer: .init(7), from: .init(x: 900, y: 400), to: .init(x: 3000, y: 3000),
                                       patience: 0)
        #expect(await host.driver(.init(1))?.offer != nil)
        let timers = Task { await host.runTimers() }
        defer { timers.cancel() }
        let deadline = ContinuousClock.now + .seconds(30)
        while await host.driver(.init(2))?.offer == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await host.driver(.init(2))?.offer != nil, "the offer did not time out within 30 s at 600× (a minute at 1×)")
    }
}
