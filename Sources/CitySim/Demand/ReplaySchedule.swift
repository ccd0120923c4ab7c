import DispatchCore

/// One customer of a replayed or fitted demand: when they ask, from where, to where.
struct DemandTrip: Equatable {
    /// Simulated seconds.
    var time: Double
    var origin: Position
    var destination: Position
}

/// The trips of one run of a trip replay: the trace's window shifted onto the simulated day, scaled,
/// with the points of zone-ID trips drawn — in request order.
///
/// Method (per trip of the trace in file order, all draws from the one stream given, so a seed and a
/// replication fix the schedule): with k = `demand.scale`, the trip is requested ⌊k⌋ times plus once
/// more if a uniform draw is < k − ⌊k⌋ (one draw per trip, always made); copy 0 keeps the shifted time
/// `t − start`, copy j ≥ 1 gets `t − start + U(−jitter_s, jitter_s)`; each copy then draws its zone
/// points (origin, then destination). Copies landing before 0 or at/after the horizon are not requested.
/// Ties in time keep file order.
///
/// Invariant: `trips` are sorted by time and lie in [0, horizon); each origin and destination lies in
/// a zone.
struct ReplaySchedule {
    let trips: [DemandTrip]

    init(replay: Scenario.TripReplay, scale: Double, horizon: Double, zones: ZonePoints, _ random: RandomStream) {
        let trace = replay.trace, start = replay.startSeconds, jitter = replay.jitterSeconds
        let whole = Int(scale.rounded(.down)), fraction = scale - Double(whole)
        var trips: [DemandTrip] = []
        trips.reserveCapacity(Int(Double(trace.count(from: start, seconds: horizon)) * scale * 1.1) + 16)
        for i in 0..<trace.count {
            let shifted = trace.times[i] - start
            guard shifted >= -jitter, shifted < horizon + jitter else { continue }
            let copies = whole + (random.uniform() < fraction ? 1 : 0)
            for copy in 0..<copies {
                let time = copy == 0 ? shifted : shifted + (random.uniform() * 2 - 1) * jitter
                let origin = zones.point(of: trace.origins[i], random)
                let destination = zones.point(of: trace.destinations[i], random)
                if time >= 0, time < horizon { trips.append(DemandTrip(time: time, origin: origin, destination: destination)) }
            }
        }
        // A stable sort: equal times keep file (and copy) order.
        self.trips = trips.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }
}
