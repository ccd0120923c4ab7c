import DispatchCore

extension RunResult {
    /// Measures a finished simulation.
    init(simulation sim: CitySimulation, wallSeconds: Double) {
        let rideRows = RideRows(records: sim.rides.records.sealedRecords())
        let driverRows = sim.drivers.map { d in
            DriverRow(id: d.id.rawValue, rides: d.rides, earnings: d.earnings, shiftHours: d.shiftSeconds / 3600,
                      busyHours: d.busySeconds / 3600, queueWaitHours: d.queueSeconds / 3600)
        }
        rides = rideRows
        drivers = driverRows
        city = sim.city.geometry
        roads = sim.city.roads?.graph
        summary = Self.summarize(sim, rides: rideRows, drivers: driverRows, wallSeconds: wallSeconds)
    }

    private static func summarize(_ sim: CitySimulation, rides allRides: RideRows, drivers: [DriverRow],
                                  wallSeconds: Double) -> RunSummary {
        // The rides' tally and its sorts (after megacity's loop ~170 ms of the ~300 ms the run's thread worked
        // alone, perf) on a helper thread, while this one works out the figures that do not need it: when no
        // `rides.csv` is being written beside them. With every file the writer already keeps the second core busy
        // after the loop (megacity: ~290 ms of CPU against the run's thread's ~150), and a third thread only
        // shared the two cores out differently (city-scale +7 ms, megacity ±0) and raised the peak RSS.
        let (records, hours) = (allRides.records, Int(sim.scenario.durationHours.rounded(.up)))
        let (zones, warmup) = (sim.city.geometry.zoneCount, sim.warmup)
        let tallying: @Sendable () -> (tally: RideTally, sortedAssigns: [Double]) = {
            RideTally.sorted(records, hours: hours, zones: zones, warmup: warmup)
        }
        // Without rides.csv the rides helper has tallied the rides during the run (`RideTallyStream`).
        let tallyAside = sim.usesHelperThreads && sim.ridesAside == nil ? Aside(tallying) : nil
        let working = drivers.filter { $0.shiftHours > 0 }
        let shiftHours = working.reduce(0) { $0 + $1.shiftHours }
        let queueWaits = sim.drivers.sum { $0.queueWaits }
        let fleet = RunSummary.FleetFigures(
            taxis: working.count,
            utilization: shiftHours > 0 ? working.reduce(0) { $0 + $1.busyHours } / shiftHours : 0,
            meanQueueWaitS: queueWaits > 0 ? sim.drivers.sum { $0.queueWaitSeconds } / Double(queueWaits) : 0,
            queueWaits: queueWaits, queueWaitsCensored: sim.drivers.sum { $0.censoredQueueWaits },
            madReassignments: sim.madReassignments)
        let zoneQueues = ZoneQueueFairnessBuilder.figures(sim)
        let fairness = RunSummary.FairnessFigures(
            jainRidesPerShiftHour: Statistics.jain(working.map { Double($0.rides) / $0.shiftHours }),
            giniEarnings: Statistics.gini(working.map { $0.earnings / $0.shiftHours }),
            fifoViolations: sim.queueOrder.violations, fifoOffersChecked: sim.queueOrder.offersChecked,
            byShift: ShiftFairnessBuilder.figures(sim, zoneQueues: zoneQueues), byShiftZone: zoneQueues)
        let (tally, assigns) = sim.ridesTally?.value() ?? (try? tallyAside?.value()) ?? tallying()
        // The means the summary gives, side by side (`SampleMeans`): the window's waits, the assignment times,
        // then each zone's waits.
        let means = SampleMeans.of([tally.windowWaits, assigns] + tally.zoneWaits)
        var counts = tally.counts
        counts.refusedOpenRequest = sim.refusedOpenRequest
        if sim.scenario.demand.odMatrix?.zones != nil {
            counts.droppedOutsideZones = sim.realDemand?.droppedTimes.filter { $0 >= sim.warmup }.count
        }
        counts.refusedTooSoon = sim.refusedTooSoon
        let measuredHours = sim.scenario.durationHours - sim.scenario.warmupHours
        return RunSummary(
            scenario: sim.scenario.name, scenarioHash: sim.scenarioHash, commit: nil, seed: sim.seed,
            replication: sim.streams.replication, policy: sim.core.policy.name,
            simulatedHours: sim.scenario.durationHours, warmupHours: sim.scenario.warmupHours,
            requests: counts, waitS: Statistics.distribution(sorted: tally.windowWaits, mean: means[0]),
            waitServedShare: share(tally.windowWaits.count, of: counts.immediate),
            assignS: Statistics.distribution(sorted: assigns, mean: means[1]),
            assignAcceptedShare: share(tally.assigns.count, of: counts.immediate),
            offers: tally.offers, reservations: tally.booked, fleet: fleet, fairness: fairness,
            throughputPerHour: Double(tally.pickedUp) / measuredHours,
            engine: .init(events: sim.eventCount, wallS: wallSeconds,
                          eventsPerS: wallSeconds > 0 ? Double(sim.eventCount) / wallSeconds : 0),
            perHour: hourFigures(sim, tally), perZone: zoneFigures(sim, tally, means: means[2...]),
            planner: sim.plannerDemand.map { PlannerSummary($0, bookings: sim.plannerBookings, rides: allRides) },
            measurement: RunSummary.Measurement(fromHours: sim.scenario.warmupHours, toHours: sim.scenario.durationHours))
    }

    /// `part / whole`, 0 for an empty whole.
    static func share(_ part: Int, of whole: Int) -> Double { whole > 0 ? Double(part) / Double(whole) : 0 }

    private static func hourFigures(_ sim: CitySimulation, _ tally: RideTally) -> [RunSummary.HourFigures] {
        tally.hours.indices.map { h in
            let hour = tally.hours[h], waits = tally.hourWaits[h]
            var figures = RunSummary.HourFigures(hour: h)
            figures.demand = hour.demand
            figures.served = hour.served
            figures.rejected = hour.rejected
            figures.expired = hour.expired
            figures.meanWaitS = waits.isEmpty ? 0 : hour.waitSum / Double(waits.count)
            let distribution = Statistics.distribution(sorted: waits, mean: figures.meanWaitS)  // its sum's, not GSL's
            figures.p50WaitS = distribution.p50
            figures.p90WaitS = distribution.p90
            figures.p95WaitS = distribution.p95
            figures.p99WaitS = distribution.p99
            figures.waitServedShare = share(waits.count, of: hour.immediate)
            if h < sim.hourly.count {
                figures.taxisOnShift = sim.hourly[h].taxisOnShift
                figures.taxisAvailable = sim.hourly[h].taxisAvailable
            }
            return figures
        }
    }

    /// `means`: each zone's mean wait, in zone order.
    private static func zoneFigures(_ sim: CitySimulation, _ tally: RideTally, means: ArraySlice<Double>) -> [RunSummary.ZoneFigures] {
        tally.zones.indices.map { zone in
            let summary = Statistics.distribution(sorted: tally.zoneWaits[zone], mean: means[means.startIndex + zone])
            return RunSummary.ZoneFigures(zone: zone, requests: tally.zones[zone].requests, meanWaitS: summary.mean,
                                          p90WaitS: summary.p90,
                                          waitServedShare: share(tally.zoneWaits[zone].count, of: tally.zones[zone].immediate),
                                          queueLengthByHour: sim.hourly.map { Int($0.queueLengthByZone[zone]) })
        }
    }
}
