import DispatchCore
import RoadNetwork

/// One drive of a taxi along the roads of a road city — to a pickup, a ride, an idle drift — timed from
/// its start: where the taxi is at any moment of it.
///
/// The route is the fastest one leaving at `startedAt` (`RoadRouter.path`, the route whose travel time the
/// leg's duration was computed from). The taxi drives it at a constant fraction of the route's speeds, the
/// leg's own factor (a request's drive noise, the drift's half speed): it passes the route's points in
/// order and reaches `destination` exactly at `endsAt`. The route is computed only when a position inside
/// the leg is first asked for — most pickup drives and rides end without anyone asking — and then kept.
///
/// Invariant: `duration >= 0`; `position(at:on:)` is `origin` up to `startedAt`, `destination` from `endsAt`
/// on, and in between a point of the route that never moves backwards along it as time goes on.
struct RoadLeg {
    enum Purpose { case toPickup, ride, drift }

    let purpose: Purpose
    let origin: Position
    let destination: Position
    let startedAt: Double
    let duration: Double
    /// The route, once asked for.
    private(set) var path: RoadPath?

    init(_ purpose: Purpose, from origin: Position, to destination: Position, startedAt: Double, duration: Double) {
        precondition(duration >= 0, "a leg cannot end before it starts")
        self.purpose = purpose
        self.origin = origin
        self.destination = destination
        self.startedAt = startedAt
        self.duration = duration
    }

    var endsAt: Double { startedAt + duration }

    /// The route along the roads, computed on the first call.
    /// - Complexity: one `RoadRouter.path` query on the first call, O(1) after.
    mutating func route(on roads: RoadRouter) -> RoadPath {
        if let path { return path }
        let found = roads.path(from: origin, to: destination, departingAt: startedAt)
        path = found
        return found
    }

    /// Where the taxi is at `time`: on the route, as far along it as the scaled clock says.
    /// - Complexity: O(log route points) once the route is known.
    mutating func position(at time: Double, on roads: RoadRouter) -> Position {
        guard time > startedAt else { return origin }
        guard time < endsAt else { return destination }
        let path = route(on: roads)
        return path.position(after: (time - startedAt) * path.duration / duration)
    }

    /// The first place from `time` on where the taxi is inside the city (`inside`), and when it is there:
    /// its position at `time` when that is inside, else the next point of the route that is (a road may
    /// leave every zone for a while), else the destination at the end.
    /// - Complexity: O(route points) in the worst case; O(log route points) when the position is inside.
    mutating func firstPlace(from time: Double, on roads: RoadRouter,
                             inside: (Position) -> Bool) -> (place: Position, time: Double) {
        let here = position(at: time, on: roads)
        if inside(here) || time >= endsAt { return (here, max(time, startedAt)) }
        let path = route(on: roads)
        let scale = path.duration > 0 ? duration / path.duration : 0
        for (point, seconds) in zip(path.points, path.seconds) where startedAt + seconds * scale > time && inside(point) {
            return (point, startedAt + seconds * scale)
        }
        return (destination, endsAt)
    }
}
