/// `fairness.by_shift`: fairness among drivers who face the same hours and the same demand.
///
/// Each shift interval of a driver that lies wholly in the measurement window is one value:
/// the rides the driver accepted in it (and completed) per shift hour, and their fares per
/// shift hour. Values are grouped by the scenario's shift (name), so the figure measures how
/// dispatch shares work among comparable drivers, not the mismatch between shifts and demand,
/// and no shift cut by the warm-up or the horizon dilutes it. Each shift also summarises its zone queues'
/// figures (`zoneQueues`, see `ZoneQueueFairnessBuilder`).
enum ShiftFairnessBuilder {
    static func figures(_ sim: CitySimulation, zoneQueues: [RunSummary.ShiftZoneFairness]) -> [RunSummary.ShiftFairness] {
        // Each driver's shift intervals wholly in the window, numbered one after the other; a ride counts
        // in the interval of its driver in which it was accepted (fares added in request order).
        let drivers = sim.drivers.map { (shift: $0.shift, shifts: $0.shifts) }  // what is read of each, once
        var first = [Int](repeating: 0, count: drivers.count + 1)
        var intervals: [(start: Double, end: Double)] = []
        for (d, driver) in drivers.enumerated() {
            first[d] = intervals.count
            for interval in driver.shifts where interval.start >= sim.warmup && interval.end <= sim.horizon {
                intervals.append(interval)
            }
        }
        first[drivers.count] = intervals.count
        var rides = [Int](repeating: 0, count: intervals.count)
        var fares = [Double](repeating: 0, count: intervals.count)
        for ride in sim.rides.records where ride.outcome == .served {
            guard let driver = ride.driver?.rawValue, let at = ride.acceptedAt else { continue }
            for i in first[driver]..<first[driver + 1] where at >= intervals[i].start && at < intervals[i].end {
                rides[i] += 1
                fares[i] += ride.fare
            }
        }
        let shifts = sim.scenario.fleet.shifts
        var rates = Array(repeating: [Double](), count: shifts.count)
        var earnings = Array(repeating: [Double](), count: shifts.count)
        for (d, driver) in drivers.enumerated() {
            for i in first[d]..<first[d + 1] {
                let hours = (intervals[i].end - intervals[i].start) / 3600
                rates[driver.shift].append(Double(rides[i]) / hours)
                earnings[driver.shift].append(fares[i] / hours)
            }
        }
        return shifts.indices.map { i in
            let queues = ZoneQueueFairnessBuilder.summary(of: zoneQueues, shift: shifts[i].name)
            return RunSummary.ShiftFairness(shift: shifts[i].name, driverShifts: rates[i].count,
                                            jainRidesPerShiftHour: Statistics.jain(rates[i]),
                                            giniEarnings: Statistics.gini(earnings[i]),
                                            zoneQueues: queues.zones, zoneQueueJain: queues.meanJain,
                                            zoneQueueJainIfEqual: queues.meanJainIfEqual)
        }
    }
}
