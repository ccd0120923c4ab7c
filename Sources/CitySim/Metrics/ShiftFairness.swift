/// `fairness.by_shift`: fairness among drivers who face the same hours and the same demand.
///
/// Each shift interval of a driver that lies wholly in the measurement window is one value:
/// the rides the driver accepted in it (and completed) per shift hour, and their fares per
/// shift hour. Values are grouped by the scenario's shift (name), so the figure measures how
/// dispatch shares work among comparable drivers, not the mismatch between shifts and demand,
/// and no shift cut by the warm-up or the horizon dilutes it. Each shift also summarises its zone queues'
/// figures (`zoneQueues`, see `ZoneQueueFairnessBuilder`).
enum ShiftFairnessBuilder {
    static func figures(_ sim: CitySimulation, rides: RunResult.RideRows,
                        zoneQueues: [RunSummary.ShiftZoneFairness]) -> [RunSummary.ShiftFairness] {
        var accepted = Array(repeating: [(at: Double, fare: Double)](), count: sim.drivers.count)
        for ride in rides where ride.outcome == "served" {
            if let driver = ride.driver, let at = ride.acceptedAt { accepted[driver].append((at, ride.fare)) }
        }
        let shifts = sim.scenario.fleet.shifts
        var rates = Array(repeating: [Double](), count: shifts.count)
        var earnings = Array(repeating: [Double](), count: shifts.count)
        for (d, driver) in sim.drivers.enumerated() {
            for interval in driver.shifts where interval.start >= sim.warmup && interval.end <= sim.horizon {
                let hours = (interval.end - interval.start) / 3600
                var count = 0, fares = 0.0
                for ride in accepted[d] where ride.at >= interval.start && ride.at < interval.end {
                    count += 1
                    fares += ride.fare
                }
                rates[driver.shift].append(Double(count) / hours)
                earnings[driver.shift].append(fares / hours)
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
