/// `fairness.by_shift_zone`: does each zone queue treat comparable drivers equally?
///
/// Comparable drivers are those of one scenario shift (same hours, same demand) waiting in one zone's
/// queue (same requests). For every driver-shift wholly inside the measurement window and every zone,
/// the driver's stints in that zone's queue, summed as they end (`QueueStints`), give its queued time there
/// and its dispatches from it (offers that took it out of the queue; what the driver then answers is the
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
    /// A kept cell with its grouping key, and where it and its waits are (see `groups`).
    private struct Kept {
        let shift: Int32, zone: Int32, driverShift: Int32
        let part: Int32, cell: Int32, firstWait: Int32
    }

    /// Least queued time in a zone for a driver-shift to be compared there, seconds.
    static let minimumQueuedSeconds = 1800.0

    /// The figures of every (shift, zone) group, shifts in scenario order, zones ascending.
    static func figures(_ sim: CitySimulation) -> [RunSummary.ShiftZoneFairness] {
        groups(sim.queueStints, closingAt: sim.horizon, shiftNames: sim.scenario.fleet.shifts.map(\.name))
    }

    /// The groups' figures from the stints' cells, the driver-shifts still open closed at `horizon`.
    static func groups(_ stints: QueueStints, closingAt horizon: Double,
                       shiftNames: [String]) -> [RunSummary.ShiftZoneFairness] {
        // The cells kept during the run, then those closed at the horizon (passed apart, not appended, so
        // a long run's cells are not copied), each with its grouping key: 24 bytes a cell.
        let parts = [stints.kept, stints.closing(at: horizon)]
        var kept: [Kept] = []
        for (p, part) in parts.enumerated() {
            var firstWait: Int32 = 0
            for (c, cell) in part.cells.enumerated() {
                kept.append(Kept(shift: cell.shift, zone: cell.zone, driverShift: cell.driverShift,
                                 part: Int32(p), cell: Int32(c), firstWait: firstWait))
                firstWait += cell.dispatches
            }
        }
        kept.sort { ($0.shift, $0.zone, $0.driverShift) < ($1.shift, $1.zone, $1.driverShift) }

        var figures: [RunSummary.ShiftZoneFairness] = []
        var rates: [Double] = [], groupWaits: [Double] = []
        var start = 0
        while start < kept.count {
            var end = start
            while end < kept.count, kept[end].shift == kept[start].shift, kept[end].zone == kept[start].zone { end += 1 }
            rates.removeAll(keepingCapacity: true)
            groupWaits.removeAll(keepingCapacity: true)
            var queued = 0.0, dispatches = 0, inverseHours = 0.0
            for k in kept[start..<end] {  // one driver-shift of the group each
                let part = parts[Int(k.part)], cell = part.cells[Int(k.cell)]
                rates.append(Double(cell.dispatches) / (cell.seconds / 3600))
                groupWaits += part.waits[Int(k.firstWait)..<Int(k.firstWait + cell.dispatches)]
                queued += cell.seconds
                dispatches += Int(cell.dispatches)
                inverseHours += 3600 / cell.seconds
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
