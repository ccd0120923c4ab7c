/// `fairness.by_shift_zone`: does each zone queue treat comparable drivers equally?
///
/// Comparable drivers are those of one scenario shift (same hours, same demand) waiting in one zone's
/// queue (same requests). For every driver-shift wholly inside the measurement window and every zone,
/// the driver's stints in that zone's queue (`QueueStints`) give its queued time there and its
/// dispatches from it (offers that took it out of the queue; what the driver then answers is the
/// driver's choice, not the queue's). The queue's treatment of the driver is its dispatch rate,
/// dispatches per queued hour: an occurrence/exposure rate, so a stint cut by a shift end or a move to
/// another zone counts its time without a dispatch and biases nothing. Under an even-handed queue
/// every driver of the group sees the same rate up to chance; one that favours some drivers spreads
/// the rates out, and Jain's index over the group falls.
///
/// A driver joins a group with at least `minimumQueuedSeconds` in that queue: a rate over a few
/// minutes of exposure is noise (one dispatch after 2 min reads 30 per hour). Groups of fewer than
/// two such drivers are left out. Waits are those of the group's drivers' dispatches (join → offer).
enum ZoneQueueFairnessBuilder {
    /// A stint of a complete driver-shift, with its grouping key, by index (see `groups`).
    private struct Kept {
        let shift: Int32, zone: Int32, driverShift: Int32, index: Int32
        let start: Double
    }

    /// Least queued time in a zone for a driver-shift to be compared there, seconds.
    static let minimumQueuedSeconds = 1800.0

    /// The figures of every (shift, zone) group, shifts in scenario order, zones ascending.
    static func figures(_ sim: CitySimulation) -> [RunSummary.ShiftZoneFairness] {
        groups(stints: sim.queueStints.finished, closing: sim.queueStints.openStints(closingAt: sim.horizon), drivers: sim.drivers.map { ($0.shift, $0.shifts) },
               shiftNames: sim.scenario.fleet.shifts.map(\.name), window: (sim.warmup, sim.horizon))
    }

    /// The groups' figures from the stints and every driver's (scenario shift, shift intervals).
    /// - Parameter closing: stints that follow `stints` (the open ones closed at the horizon), passed apart
    ///   so a long run's stints are not copied into one array.
    static func groups(stints: [QueueStints.Stint], closing: [QueueStints.Stint] = [],
                       drivers: [(shift: Int, intervals: [(start: Double, end: Double)])],
                       shiftNames: [String], window: (start: Double, end: Double)) -> [RunSummary.ShiftZoneFairness] {
        // Each stint of a complete driver-shift, keyed (shift, zone, driver-shift), by its index in
        // `stints` then `closing` (24 bytes a stint, not a copy of it).
        var base = [Int](), next = 0
        for driver in drivers { base.append(next); next += driver.intervals.count }
        func stint(_ index: Int32) -> QueueStints.Stint {
            Int(index) < stints.count ? stints[Int(index)] : closing[Int(index) - stints.count]
        }
        var kept: [Kept] = []
        for index in 0..<(stints.count + closing.count) {
            let stint = stint(Int32(index))
            let d = Int(stint.taxi)
            guard let i = drivers[d].intervals.lastIndex(where: { $0.start <= stint.start }) else { continue }
            let interval = drivers[d].intervals[i]
            guard interval.start >= window.start, interval.end <= window.end else { continue }
            kept.append(Kept(shift: Int32(drivers[d].shift), zone: stint.zone, driverShift: Int32(base[d] + i),
                             index: Int32(index), start: stint.start))
        }
        kept.sort { ($0.shift, $0.zone, $0.driverShift, $0.start) < ($1.shift, $1.zone, $1.driverShift, $1.start) }

        var figures: [RunSummary.ShiftZoneFairness] = []
        var rates: [Double] = [], waits: [Double] = [], groupWaits: [Double] = []
        var queued = 0.0, dispatches = 0, inverseHours = 0.0
        var start = 0
        while start < kept.count {
            var end = start
            while end < kept.count, kept[end].shift == kept[start].shift, kept[end].zone == kept[start].zone { end += 1 }
            rates.removeAll(keepingCapacity: true)
            groupWaits.removeAll(keepingCapacity: true)
            queued = 0
            dispatches = 0
            inverseHours = 0
            var d = start
            while d < end {  // one driver-shift of the group
                var e = d, seconds = 0.0
                waits.removeAll(keepingCapacity: true)
                while e < end, kept[e].driverShift == kept[d].driverShift {
                    seconds += stint(kept[e].index).seconds
                    if stint(kept[e].index).dispatched { waits.append(stint(kept[e].index).seconds) }
                    e += 1
                }
                if seconds >= minimumQueuedSeconds {
                    rates.append(Double(waits.count) / (seconds / 3600))
                    groupWaits += waits
                    queued += seconds
                    dispatches += waits.count
                    inverseHours += 3600 / seconds
                }
                d = e
            }
            if rates.count >= 2 {
                let wait = Statistics.distribution(groupWaits)
                figures.append(RunSummary.ShiftZoneFairness(
                    shift: shiftNames[Int(kept[start].shift)], zone: Int(kept[start].zone), drivers: rates.count,
                    queuedHours: queued / 3600, dispatches: dispatches,
                    jainDispatchesPerQueuedHour: Statistics.jain(rates),
                    jainIfEqual: jainIfEqual(dispatches: dispatches, queuedHours: queued / 3600,
                                             harmonicHours: Double(rates.count) / inverseHours),
                    meanWaitS: wait.mean, p90WaitS: wait.p90))
            }
            start = end
        }
        return figures
    }

    /// Jain's index expected when every driver of a group has the group's pooled dispatch rate λ and
    /// dispatches are Poisson: with rates Oᵢ/Tᵢ, E[Σrᵢ] = nλ and E[Σrᵢ²] = Σ(λ² + λ/Tᵢ), so (ratio of
    /// expectations) 1 / (1 + 1/(λH)), H the harmonic mean of the queued hours Tᵢ. It is below 1 only
    /// because a few dispatches per driver are few: the reference a measured index is read against.
    static func jainIfEqual(dispatches: Int, queuedHours: Double, harmonicHours: Double) -> Double {
        guard dispatches > 0, queuedHours > 0 else { return 1 }
        return 1 / (1 + 1 / (Double(dispatches) / queuedHours * harmonicHours))
    }

    /// Per shift: how many zone queues have a figure, and the driver-weighted means of their Jain indices,
    /// measured and expected under equal rates.
    static func summary(of figures: [RunSummary.ShiftZoneFairness], shift: String)
        -> (zones: Int, meanJain: Double, meanJainIfEqual: Double)
    {
        let own = figures.filter { $0.shift == shift }
        let drivers = Double(own.reduce(0) { $0 + $1.drivers })
        guard drivers > 0 else { return (0, 1, 1) }
        return (own.count, own.reduce(0) { $0 + Double($1.drivers) * $1.jainDispatchesPerQueuedHour } / drivers,
                own.reduce(0) { $0 + Double($1.drivers) * $1.jainIfEqual } / drivers)
    }
}
