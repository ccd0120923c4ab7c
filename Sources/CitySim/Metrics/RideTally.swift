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
    /// (`packingTags: false` keeps the hour and zone of each wait in arrays even where they fit in its tag:
    /// the way every run took before the tags were packed, kept for runs too long or zoned too finely.)
    init(_ records: RideLog.Sealed, hours: Int, zones: Int, warmup: Double, packingTags: Bool = true) {
        var pass = Pass(hours: hours, zones: zones, warmup: warmup, expected: records.count, packingTags: packingTags)
        for ride in records { pass.add(ride) }
        self = pass.finished()
    }

    /// An empty tally of `hours` hours and `zones` zones.
    private init(hours: Int, zones: Int) {
        self.hours = Array(repeating: HourTally(), count: hours)
        self.zones = Array(repeating: ZoneTally(), count: zones)
        hourWaits = Array(repeating: [], count: hours)
        zoneWaits = Array(repeating: [], count: zones)
    }

    /// The tally's one pass over the records, then its one sort (`finished`). The records may come in batches
    /// while a run goes on (`RideTallyStream`); added in request order, they give the tally of the whole run.
    ///
    /// Invariant: after `add` of records 0 ..< n in order, `finished()` equals `RideTally` of those n records.
    struct Pass {
        private var tally: RideTally
        private let hourCount: Int
        private let warmup: Double
        // Every wait with its hour and its zone (-1 outside the window), for the one sort: packed into the
        // sort's tag when they fit in 32 bits (up to 4,096 hours with under 2²⁰ zones; longer with fewer), so the
        // handout after the sort reads them from the tag. Tags that were indices into per-wait arrays made
        // it two cache misses per wait (a third of the tally's time on megacity's 1.9 M waits, perf).
        private let tagging: WaitTagging
        private var waits: [Double] = [], tags: [UInt32] = [], hourOfWait: [Int32] = [], zoneOfWait: [Int32] = []
        // How many waits each hour and each zone gets, so their arrays are made once at their size.
        private var waitsOfHour: [Int], waitsOfZone: [Int]

        /// Room is made for `expected` records (more may come).
        init(hours: Int, zones: Int, warmup: Double, expected: Int, packingTags: Bool = true) {
            tally = RideTally(hours: hours, zones: zones)
            hourCount = hours
            self.warmup = warmup
            tagging = WaitTagging(hours: hours, zones: zones, packing: packingTags)
            waitsOfHour = [Int](repeating: 0, count: hours)
            waitsOfZone = [Int](repeating: 0, count: zones)
            tally.assigns.reserveCapacity(expected)
            waits.reserveCapacity(expected)
            tags.reserveCapacity(expected)
        }

        /// Counts the next record in request order.
        @inline(__always)
        mutating func add(_ ride: RideRecord) {
            let hour = min(hourCount - 1, Int(ride.requestedAt / 3600))
            let inWindow = ride.requestedAt >= warmup
            let wait = ride.wait
            RideTally.count(ride, wait: wait, into: &tally.hours[hour])  // one access to the hour's tally, not one per field
            if let wait {
                let zone = inWindow ? ride.originZone : -1
                waitsOfHour[hour] += 1
                if zone >= 0 { waitsOfZone[zone] += 1 }
                if tagging.packs {
                    tags.append(tagging.tag(hour: hour, zone: zone))
                } else {
                    tags.append(UInt32(waits.count))
                    hourOfWait.append(Int32(hour))
                    zoneOfWait.append(Int32(zone))
                }
                waits.append(wait)
            }
            guard inWindow else { return }
            RideTally.count(ride, into: &tally.zones[ride.originZone])
            tally.countWindow(ride)
        }

        /// The tally of the records added: the waits sorted once, then handed out in sorted order to the
        /// window, each hour and each zone.
        consuming func finished() -> RideTally {
            let sorted = Statistics.sortedWithTags(waits, tags: tags)
            for hour in 0..<hourCount { tally.hourWaits[hour].reserveCapacity(waitsOfHour[hour]) }
            for zone in waitsOfZone.indices { tally.zoneWaits[zone].reserveCapacity(waitsOfZone[zone]) }
            tally.windowWaits.reserveCapacity(waitsOfZone.reduce(0, +))
            var windowWaits = tally.windowWaits
            tally.windowWaits = []
            let (tagging, hourOfWait, zoneOfWait) = (tagging, hourOfWait, zoneOfWait)
            // Through the outer arrays' buffers: `hourWaits[hour].append` checked the outer array's uniqueness for
            // every wait, and grew each inner one step by step (perf, megacity: 45 ms for 1.9 M waits).
            tally.hourWaits.withUnsafeMutableBufferPointer { hourWaits in
                tally.zoneWaits.withUnsafeMutableBufferPointer { zoneWaits in
                    for (wait, tag) in zip(sorted.values, sorted.tags) {
                        let (hour, zone) = tagging.packs ? tagging.hourAndZone(tag) : (Int(hourOfWait[Int(tag)]), Int(zoneOfWait[Int(tag)]))
                        hourWaits[hour].append(wait)
                        if zone >= 0 {
                            windowWaits.append(wait)
                            zoneWaits[zone].append(wait)
                        }
                    }
                }
            }
            tally.windowWaits = windowWaits
            return tally
        }

        /// `finished()` with the assignment times sorted (`RideTally.sorted`).
        consuming func sorted() -> (tally: RideTally, sortedAssigns: [Double]) {
            let tally = finished()
            return (tally, RadixSort.sorted(tally.assigns))
        }
    }

    /// The tally of `records` with its assignment times sorted: the summary's first step, which
    /// `RunResult` runs on a helper thread beside the figures that do not need it.
    static func sorted(_ records: RideLog.Sealed, hours: Int, zones: Int,
                       warmup: Double) -> (tally: RideTally, sortedAssigns: [Double]) {
        var pass = Pass(hours: hours, zones: zones, warmup: warmup, expected: records.count)
        for ride in records { pass.add(ride) }
        return pass.sorted()
    }

    /// A wait's hour and zone (-1 outside the window) in one 32-bit tag: the hour above `zoneBits` bits
    /// holding zone + 1. `packs` is false when `hours` and `zones` need more than 32 bits together.
    struct WaitTagging {
        let zoneBits: Int
        let packs: Bool

        init(hours: Int, zones: Int, packing: Bool = true) {
            zoneBits = Int.bitWidth - max(zones, 0).leadingZeroBitCount
            packs = packing && zoneBits < 32 && UInt64(max(hours, 1)) <= UInt64(1) << (32 - zoneBits)
        }

        func tag(hour: Int, zone: Int) -> UInt32 { UInt32(hour) << zoneBits | UInt32(zone + 1) }

        func hourAndZone(_ tag: UInt32) -> (hour: Int, zone: Int) {
            (Int(tag >> zoneBits), Int(tag & (UInt32(1) << zoneBits &- 1)) - 1)
        }
    }

    fileprivate static func count(_ ride: RideRecord, wait: Double?, into hour: inout HourTally) {
        if !ride.isReservation { hour.immediate += 1 }
        hour.demand += 1
        switch ride.outcome {
        case .served: hour.served += 1
        case .rejected: hour.rejected += 1
        case .expired: hour.expired += 1
        case .pending, .cancelled: break
        }
        if let wait { hour.waitSum += wait }
    }

    fileprivate static func count(_ ride: RideRecord, into zone: inout ZoneTally) {
        zone.requests += 1
        if !ride.isReservation { zone.immediate += 1 }
    }

    fileprivate mutating func countWindow(_ ride: RideRecord) {
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
