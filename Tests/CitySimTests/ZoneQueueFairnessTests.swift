import Testing
@testable import CitySim

/// `fairness.by_shift_zone`: fairness within each zone queue, per shift, over complete driver-shifts.
@Suite("Fairness within each zone queue")
struct ZoneQueueFairnessTests {
    /// One zone, `drivers` taxis queued from t = 0 (driver k joins at k s), a request every 5 min for
    /// 8 h, each ride 1,000 s, then the taxi joins the tail again; the queue hands each request to its
    /// longest-waiting taxi (FIFO) or to its latest (LIFO). Shift 0–8 h for everyone, window 0–8 h.
    static func oneZoneQueue(drivers: Int, lastInFirstOut: Bool) -> [RunSummary.ShiftZoneFairness] {
        let end = 8 * 3600.0
        var stints = QueueStints(drivers: (0..<drivers).map { _ in (0, [(0, end)]) }, window: (0, end))
        var queue: [Int32] = []  // joining order
        var returns: [(at: Double, taxi: Int32)] = []
        for k in 0..<drivers {
            stints.join(Int32(k), zone: 0, at: Double(k))
            queue.append(Int32(k))
        }
        var now = 300.0
        while now < end {
            for back in returns where back.at <= now {
                stints.join(back.taxi, zone: 0, at: back.at)
                queue.append(back.taxi)
            }
            returns.removeAll { $0.at <= now }
            if !queue.isEmpty {
                let taxi = lastInFirstOut ? queue.removeLast() : queue.removeFirst()
                stints.leave(taxi, at: now, dispatched: true)
                returns.append((now + 1000, taxi))
            }
            now += 300
        }
        for taxi in queue { stints.leave(taxi, at: end, dispatched: false) }  // shift end
        return ZoneQueueFairnessBuilder.groups(stints, closingAt: end, shiftNames: ["day"])
    }

    /// The stints fed to a `QueueStints` one after another: each taxi joins at `start` and leaves `seconds` later.
    static func fed(_ stints: [(taxi: Int32, zone: Int, start: Double, seconds: Double, dispatched: Bool)],
                    drivers: [(shift: Int, intervals: [(start: Double, end: Double)])],
                    window: (start: Double, end: Double)) -> QueueStints {
        var fed = QueueStints(drivers: drivers, window: window)
        for stint in stints {
            fed.join(stint.taxi, zone: stint.zone, at: stint.start)
            fed.leave(stint.taxi, at: stint.start + stint.seconds, dispatched: stint.dispatched)
        }
        return fed
    }

    @Test("a FIFO zone queue serves its drivers at equal rates: Jain 1, above the equal-rate reference")
    func fifoQueueTreatsDriversEqually() throws {
        let figures = Self.oneZoneQueue(drivers: 6, lastInFirstOut: false)
        let group = try #require(figures.first)
        #expect(figures.count == 1 && group.shift == "day" && group.zone == 0 && group.drivers == 6)
        #expect(group.dispatches == 95)  // a request every 5 min from 00:05 to 07:55
        #expect(group.jainDispatchesPerQueuedHour > 0.99, "\(group)")
        #expect(group.jainDispatchesPerQueuedHour > group.jainIfEqual)
        // A round of six requests takes 30 min, so once every taxi has had one each waits 1,800 − 1,000 s.
        #expect(abs(group.p90WaitS - 800) < 1e-9, "\(group)")
    }

    @Test("a LIFO zone queue starves its longest-waiting drivers, and the figure falls below the equal-rate reference")
    func lifoQueueIsCaught() throws {
        let group = try #require(Self.oneZoneQueue(drivers: 6, lastInFirstOut: true).first)
        let fifo = try #require(Self.oneZoneQueue(drivers: 6, lastInFirstOut: false).first)
        // Four taxis take turns (each back 200 s before the next request); the two that queued first wait the
        // whole shift: Jain ≈ 4² / (6 · 4) = 2/3.
        #expect(abs(group.jainDispatchesPerQueuedHour - 2.0 / 3) < 0.02, "\(group)")
        #expect(group.jainDispatchesPerQueuedHour < group.jainIfEqual)
        #expect(group.jainDispatchesPerQueuedHour < fifo.jainDispatchesPerQueuedHour - 0.3)
    }

    @Test("only driver-shifts wholly inside the window are compared")
    func onlyCompleteShiftsCount() throws {
        // Window 1–9 h. Drivers 0 and 1: shift 1–9 h, one dispatch per queued hour each. Driver 2's shift
        // began before the window (0.5 h), driver 3's ends after it (9.5 h): both got three in 48 min.
        func stint(_ taxi: Int32, _ start: Double, _ seconds: Double, _ dispatched: Bool)
            -> (taxi: Int32, zone: Int, start: Double, seconds: Double, dispatched: Bool) { (taxi, 2, start, seconds, dispatched) }
        let stints = [stint(0, 3600, 3600, true), stint(1, 7200, 3600, true),
                      stint(2, 3600, 360, true), stint(2, 4000, 360, true), stint(2, 4400, 360, true),
                      stint(3, 3600, 360, true), stint(3, 4000, 360, true), stint(3, 4400, 360, true)]
        let drivers: [(shift: Int, intervals: [(start: Double, end: Double)])] = [
            (0, [(3600, 9 * 3600)]), (0, [(3600, 9 * 3600)]), (0, [(1800, 9 * 3600)]), (0, [(3600, 9.5 * 3600)])]
        // Their 6-min stints get half an hour more in that queue (censored), above the exposure floor.
        let padded = stints + [stint(2, 5000, 1800, false), stint(3, 5000, 1800, false)]
        let window = (start: 3600.0, end: 9 * 3600.0)
        let figures = ZoneQueueFairnessBuilder.groups(Self.fed(padded, drivers: drivers, window: window),
                                                      closingAt: window.end, shiftNames: ["day"])
        let group = try #require(figures.first)
        #expect(figures.count == 1 && group.drivers == 2 && group.dispatches == 2, "\(figures)")
        #expect(abs(group.jainDispatchesPerQueuedHour - 1) < 1e-12)
    }

    @Test("a driver with less than half an hour in a queue is not compared there")
    func shortExposureIsLeftOut() throws {
        let stints: [(taxi: Int32, zone: Int, start: Double, seconds: Double, dispatched: Bool)] = [
            (0, 0, 0, 3600, true), (1, 0, 0, 3600, true), (2, 0, 0, 60, true)]
        let fed = Self.fed(stints, drivers: (0..<3).map { _ in (0, [(0, 7200)]) }, window: (0, 7200))
        let figures = ZoneQueueFairnessBuilder.groups(fed, closingAt: 7200, shiftNames: ["day"])
        #expect(figures.map(\.drivers) == [2])
    }

    @Test("in the simulated city, zone-fifo reads above the equal-rate reference in every shift and nearest-idle below")
    func simulatedQueuesAgainstTheReference() throws {
        for policy in ["zone-fifo", "nearest-idle"] {
            let scenario = try SimulationRunTests.scenario("rush-hour.yaml", ["dispatch.policy=\(policy)"])
            let fairness = try CitySimulation(scenario: scenario).run().summary.fairness
            // The night shift (22–06) is never whole inside 01–24 h: no zone queue of it is compared.
            #expect(fairness.byShift.map(\.zoneQueues)[2] == 0 && !fairness.byShiftZone.contains { $0.shift == "night" })
            for shift in fairness.byShift.prefix(2) {
                #expect(shift.zoneQueues >= 20)
                let groups = fairness.byShiftZone.filter { $0.shift == shift.shift }
                #expect(groups.allSatisfy { $0.drivers >= 2 && $0.drivers <= shift.driverShifts })
                if policy == "zone-fifo" {
                    #expect(shift.zoneQueueJain > shift.zoneQueueJainIfEqual + 0.05, "\(shift)")
                } else {
                    #expect(shift.zoneQueueJain < shift.zoneQueueJainIfEqual, "\(shift)")
                }
            }
        }
    }
}
