import DispatchCore
import RoadNetwork

/// An idle taxi cruising along the roads of a road city towards a hotspot (`drivers.idle: drift`).
///
/// Invariant: `duration > 0`; the taxi drives `path` at a constant fraction of the path's speeds
/// (half of them: the drift takes twice the path's travel time), so at `startedAt + duration` it is at
/// the path's end.
struct RoadDrift {
    let path: RoadPath
    let startedAt: Double
    let duration: Double

    /// How often, in simulated seconds, a drifting taxi tells the core where it is on the road.
    static let reportInterval = 30.0

    var endsAt: Double { startedAt + duration }

    /// Where the taxi is on the road at `time`: the path interpolated by time.
    func position(at time: Double) -> Position {
        path.position(after: (time - startedAt) * path.duration / duration)
    }
}

// MARK: - Idle drift

extension CitySimulation {
    /// Starts an idle taxi's drift to `spot` taking `duration` seconds. On the grid the taxi reaches `spot` at
    /// the end (one event); in a road city it follows the fastest route, telling the core its position on
    /// the road every `RoadDrift.reportInterval` seconds, so that wherever an offer stops it, the core
    /// has it on the road where it was at most one interval before.
    func startDrift(_ d: Int32, from here: Position, to spot: Position, duration: Double) {
        drivers[Int(d)].pendingPosition = spot
        let event = SimEvent.driftArrives(driver: d, generation: drivers[Int(d)].generation)
        guard let roads = city.roads, duration > 0 else {
            schedule(event, at: events.now + duration)
            return
        }
        let drift = RoadDrift(path: roads.path(from: here, to: spot, departingAt: events.now), startedAt: events.now, duration: duration)
        roadDrifts[d] = drift
        schedule(event, at: min(events.now + RoadDrift.reportInterval, drift.endsAt))
    }

    /// A drift event: before a road drift's end the taxi reports where it is on the road and drives on;
    /// otherwise it has reached its target. Either way D2: a queued taxi that reaches another zone joins
    /// the tail of that zone's queue.
    func driftStep(_ d: Int32) {
        guard let target = drivers[Int(d)].pendingPosition else { return }
        let place: Position
        if city.roads != nil, let drift = roadDrifts[d], events.now < drift.endsAt {
            schedule(.driftArrives(driver: d, generation: drivers[Int(d)].generation),
                     at: min(events.now + RoadDrift.reportInterval, drift.endsAt))
            place = drift.position(at: events.now)
            // A road between two zones' edges may leave every zone (hexagons' ragged border): no report there.
            guard city.geometry.contains(place) else { return }
        } else {
            drivers[Int(d)].pendingPosition = nil
            if city.roads != nil { roadDrifts[d] = nil }
            place = target
        }
        // D2 (noted before the command).
        if let zone = queueOrder.zone(of: d), zoneIndex(of: place) != zone { recordJoinsTail(d, zone: zoneIndex(of: place)) }
        command(.updatePosition(drivers[Int(d)].id, place))
    }
}
