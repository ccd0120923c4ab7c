/// What the summary counts of a run's requests, gathered in one pass over the simulator's records (in
/// request order) instead of one pass per figure over `rides.csv`-style rows with string fields.
///
/// The waits of immediate requests picked up are sorted once, all together, and handed out in that order to
/// the window, each hour and each zone: a subset of a sorted sample comes out sorted, so every quantile is the
/// one sorting the subset alone gave (waits are never -0 or NaN, the only values two sorts could order
/// differently; `Statistics.sortedWithTags` falls back to a comparison sort if they ever are).
///
/// Invariant: `window`, `perHour` and `perZone` hold the same sums a pass over the records per figure
/// made, added in the same (request) order; the sorted waits are the ones each figure sorted.
struct RideTally {
    var counts = RunSummary.RequestCounts()
    var offers = RunSummary.OfferCounts()
    var booked = RunSummary.ReservationCounts()
    /// Requests of the window picked up before the horizon (rides under way at the end count).
    var pickedUp = 0
    /// Assignment times of the window's immediate requests a driver accepted, in request order.
    var assigns: [Double] = []
    /// Per hour of request (warm-up included): counts and the sum of waits in request order.
    var hours: [HourTally]
    /// Per origin zone, requests of the window.
    var zones: [ZoneTally]
    /// The sorted waits: of the window's immediate requests, of each hour's, of each zone's (window only).
    var windowWaits: [Double] = []
    var hourWaits: [[Double]]
    var zoneWaits: [[Double]]

    struct HourTally {
        var demand = 0, served = 0, rejected = 0, expired = 0, immediate = 0
        var waitSum = 0.0
    }

    struct ZoneTally {
        var requests = 0, immediate = 0
    }

    /// Tallies `records` (request ids in order) of a run with `hours` hours, `zones` zones and the window
    /// starting at `warmup` seconds.
    init(_ records: RideLog.Sealed, hours: Int, zones: Int, warmup: Double) {
        self.hours = Array(repeating: HourTally(), count: hours)
        self.zones = Array(repeating: ZoneTally(), count: zones)
        hourWaits = Array(repeating: [], count: hours)
        zoneWaits = Array(repeating: [], count: zones)
        assigns.reserveCapacity(records.count)
        // Every wait with its hour and its zone (-1 outside the window), for the one sort.
        var waits: [Double] = [], hourOfWait: [Int32] = [], zoneOfWait: [Int32] = []
        waits.reserveCapacity(records.count)
        hourOfWait.reserveCapacity(records.count)
        zoneOfWait.reserveCapacity(records.count)
        for ride in records {
            let hour = min(hours - 1, Int(ride.requestedAt / 3600))
            let inWindow = ride.requestedAt >= warmup
            let wait = ride.isReservation ? nil : ride.pickupAt.map { $0 - ride.requestedAt }
            countHour(ride, hour: hour, wait: wait)
            if let wait {
                waits.append(wait)
                hourOfWait.append(Int32(hour))
                zoneOfWait.append(inWindow ? Int32(ride.originZone) : -1)
            }
            guard inWindow else { continue }
            self.zones[ride.originZone].requests += 1
            if !ride.isReservation { self.zones[ride.originZone].immediate += 1 }
            countWindow(ride)
        }
        // Sorted once, then handed out in sorted order to the window, each hour and each zone.
        let sorted = Statistics.sortedWithTags(waits, tags: (0..<UInt32(waits.count)).map { $0 })
        for (wait, index) in zip(sorted.values, sorted.tags) {
            hourWaits[Int(hourOfWait[Int(index)])].append(wait)
            let zone = zoneOfWait[Int(index)]
            if zone >= 0 {
                windowWaits.append(wait)
                zoneWaits[Int(zone)].append(wait)
            }
        }
    }

    private mutating func countHour(_ ride: RideRecord, hour h: Int, wait: Double?) {
        if !ride.isReservation { hours[h].immediate += 1 }
        hours[h].demand += 1
        switch ride.outcome {
        case .served: hours[h].served += 1
        case .rejected: hours[h].rejected += 1
        case .expired: hours[h].expired += 1
        case .pending, .cancelled: break
        }
        if let wait { hours[h].waitSum += wait }
    }

    private mutating func countWindow(_ ride: RideRecord) {
        counts.generated += 1
        switch ride.outcome {
        case .served: counts.served += 1
        case .rejected: counts.rejected += 1
        case .cancelled: counts.cancelled += 1
        case .expired: counts.expired += 1
        case .pending:
            counts.pendingAtEnd += 1
            if ride.pickupAt != nil { counts.underWayAtEnd += 1 } else { counts.waitingAtEnd += 1 }
        }
        offers.sent += ride.offers
        offers.declined += ride.declines
        offers.timedOut += ride.timeouts
        if ride.acceptedAt != nil { offers.accepted += 1 }
        if ride.pickupAt != nil { pickedUp += 1 }
        if !ride.isReservation {
            counts.immediate += 1
            if let accepted = ride.acceptedAt { assigns.append(accepted - ride.requestedAt) }
            return
        }
        booked.made += 1
        switch ride.outcome {
        case .served:
            if let pickup = ride.pickupAt, let meeting = ride.meetingTime, pickup <= meeting {
                booked.servedOnTime += 1
            } else {
                booked.servedLate += 1
            }
        case .cancelled: booked.cancelled += 1
        case .rejected, .expired: booked.failed += 1
        case .pending: break
        }
    }
}
