import DispatchCore

extension RunResult {
    /// Measures a finished simulation; `side`, if given, gets the ride rows and the road network on a
    /// second thread while the summary is computed (`CitySimulation.run(alongsideSummary:)`).
    init(simulation sim: CitySimulation, wallSeconds: Double, alongside side: RideRowsConsumer? = nil) throws {
        let rideRows = RideRows(records: sim.rides.records)
        let driverRows = sim.drivers.map { d in
            DriverRow(id: d.id.rawValue, rides: d.rides, earnings: d.earnings, shiftHours: d.shiftSeconds / 3600,
                      busyHours: d.busySeconds / 3600, queueWaitHours: d.queueSeconds / 3600)
        }
        rides = rideRows
        drivers = driverRows
        city = sim.city.geometry
        roads = sim.city.roads?.graph
        let roads = roads
        var handOver: (@Sendable () throws -> Void)? = nil
        if let side { handOver = { try side(rideRows, roads) } }
        summary = try CitySim.alongside(handOver) {
            Self.summarize(sim, rides: rideRows, drivers: driverRows, wallSeconds: wallSeconds)
        }
    }

    private static func summarize(_ sim: CitySimulation, rides allRides: RideRows, drivers: [DriverRow],
                                  wallSeconds: Double) -> RunSummary {
        // One pass over the window's requests (made after the warm-up), in request order.
        var counts = RunSummary.RequestCounts()
        var offers = RunSummary.OfferCounts()
        var booked = RunSummary.ReservationCounts()
        var waits: [Double] = [], assigns: [Double] = []
        waits.reserveCapacity(allRides.count)
        assigns.reserveCapacity(allRides.count)
        var pickedUp = 0
        for ride in allRides where ride.requestedAt >= sim.warmup {
            counts.generated += 1
            switch ride.outcome {
            case "served": counts.served += 1
            case "rejected": counts.rejected += 1
            case "cancelled": counts.cancelled += 1
            case "expired": counts.expired += 1
            default:
                counts.pendingAtEnd += 1
                if ride.pickupAt != nil { counts.underWayAtEnd += 1 } else { counts.waitingAtEnd += 1 }
            }
            offers.sent += ride.offers
            offers.declined += ride.declines
            offers.timedOut += ride.timeouts
            if ride.acceptedAt != nil { offers.accepted += 1 }
            // Rides under way at the horizon count: requests of the window picked up before it.
            if ride.pickupAt != nil { pickedUp += 1 }
            if ride.kind == "immediate" {
                counts.immediate += 1
                if let wait = ride.waitS { waits.append(wait) }
                if let accepted = ride.acceptedAt { assigns.append(accepted - ride.requestedAt) }
                continue
            }
            booked.made += 1
            switch ride.outcome {
            case "served":
                if let pickup = ride.pickupAt, let meeting = ride.meetingTime, pickup <= meeting { booked.servedOnTime += 1 } else { booked.servedLate += 1 }
            case "cancelled": booked.cancelled += 1
            case "rejected", "expired": booked.failed += 1
            default: break
            }
        }
        counts.refusedOpenRequest = sim.refusedOpenRequest
        if sim.scenario.demand.odMatrix?.zones != nil {
            counts.droppedOutsideZones = sim.realDemand?.droppedTimes.filter { $0 >= sim.warmup }.count
        }
        counts.refusedTooSoon = sim.refusedTooSoon
        let working = drivers.filter { $0.shiftHours > 0 }
        let shiftHours = working.reduce(0) { $0 + $1.shiftHours }
        let queueWaits = sim.drivers.reduce(0) { $0 + $1.queueWaits }
        let fleet = RunSummary.FleetFigures(
            taxis: working.count,
            utilization: shiftHours > 0 ? working.reduce(0) { $0 + $1.busyHours } / shiftHours : 0,
            meanQueueWaitS: queueWaits > 0 ? sim.drivers.reduce(0) { $0 + $1.queueWaitSeconds } / Double(queueWaits) : 0,
            queueWaits: queueWaits, queueWaitsCensored: sim.drivers.reduce(0) { $0 + $1.censoredQueueWaits },
            madReassignments: sim.madReassignments)
        let zoneQueues = ZoneQueueFairnessBuilder.figures(sim)
        let fairness = RunSummary.FairnessFigures(
            jainRidesPerShiftHour: Statistics.jain(working.map { Double($0.rides) / $0.shiftHours }),
            giniEarnings: Statistics.gini(working.map { $0.earnings / $0.shiftHours }),
            fifoViolations: sim.queueOrder.violations, fifoOffersChecked: sim.queueOrder.offersChecked,
            byShift: ShiftFairnessBuilder.figures(sim, rides: allRides, zoneQueues: zoneQueues), byShiftZone: zoneQueues)
        let measuredHours = sim.scenario.durationHours - sim.scenario.warmupHours
        return RunSummary(
            scenario: sim.scenario.name, scenarioHash: sim.scenario.canonicalHash, commit: nil, seed: sim.seed,
            replication: sim.streams.replication, policy: sim.core.policy.name,
            simulatedHours: sim.scenario.durationHours, warmupHours: sim.scenario.warmupHours,
            requests: counts, waitS: Statistics.distribution(waits),
            waitServedShare: share(waits.count, of: counts.immediate),
            assignS: Statistics.distribution(assigns), assignAcceptedShare: share(assigns.count, of: counts.immediate),
            offers: offers, reservations: booked, fleet: fleet, fairness: fairness,
            throughputPerHour: Double(pickedUp) / measuredHours,
            engine: .init(events: sim.eventCount, wallS: wallSeconds,
                          eventsPerS: wallSeconds > 0 ? Double(sim.eventCount) / wallSeconds : 0),
            perHour: hourFigures(sim, allRides), perZone: zoneFigures(sim, allRides),
            planner: sim.plannerDemand.map { PlannerSummary($0, bookings: sim.plannerBookings, rides: allRides) },
            measurement: RunSummary.Measurement(fromHours: sim.scenario.warmupHours, toHours: sim.scenario.durationHours))
    }

    /// `part / whole`, 0 for an empty whole.
    static func share(_ part: Int, of whole: Int) -> Double { whole > 0 ? Double(part) / Double(whole) : 0 }

    private static func hourFigures(_ sim: CitySimulation, _ rides: RideRows) -> [RunSummary.HourFigures] {
        let hours = Int(sim.scenario.durationHours.rounded(.up))
        var figures = (0..<hours).map { RunSummary.HourFigures(hour: $0) }
        var waits = Array(repeating: [Double](), count: hours)
        var immediate = Array(repeating: 0, count: hours)
        for ride in rides {
            let h = min(hours - 1, Int(ride.requestedAt / 3600))
            if ride.kind == "immediate" { immediate[h] += 1 }
            figures[h].demand += 1
            if ride.outcome == "served" { figures[h].served += 1 }
            if ride.outcome == "rejected" { figures[h].rejected += 1 }
            if ride.outcome == "expired" { figures[h].expired += 1 }
            if let wait = ride.waitS { waits[h].append(wait) }
        }
        for h in 0..<hours {
            figures[h].meanWaitS = waits[h].isEmpty ? 0 : waits[h].reduce(0, +) / Double(waits[h].count)
            let distribution = Statistics.distribution(waits[h])
            figures[h].p50WaitS = distribution.p50
            figures[h].p90WaitS = distribution.p90
            figures[h].p95WaitS = distribution.p95
            figures[h].p99WaitS = distribution.p99
            figures[h].waitServedShare = share(waits[h].count, of: immediate[h])
            if h < sim.hourly.count {
                figures[h].taxisOnShift = sim.hourly[h].taxisOnShift
                figures[h].taxisAvailable = sim.hourly[h].taxisAvailable
            }
        }
        return figures
    }

    private static func zoneFigures(_ sim: CitySimulation, _ rides: RideRows) -> [RunSummary.ZoneFigures] {
        var waits = Array(repeating: [Double](), count: sim.city.geometry.zoneCount)
        var requests = Array(repeating: 0, count: waits.count)
        var immediate = Array(repeating: 0, count: waits.count)
        for ride in rides where ride.requestedAt >= sim.warmup {
            requests[ride.originZone] += 1
            if ride.kind == "immediate" { immediate[ride.originZone] += 1 }
            if let wait = ride.waitS { waits[ride.originZone].append(wait) }
        }
        return waits.indices.map { zone in
            let summary = Statistics.distribution(waits[zone])
            return RunSummary.ZoneFigures(zone: zone, requests: requests[zone], meanWaitS: summary.mean, p90WaitS: summary.p90,
                                          waitServedShare: share(waits[zone].count, of: immediate[zone]),
                                          queueLengthByHour: sim.hourly.map { Int($0.queueLengthByZone[zone]) })
        }
    }
}
