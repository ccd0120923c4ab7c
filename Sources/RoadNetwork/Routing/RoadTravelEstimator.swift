import DispatchCore

/// DispatchCore's `TravelTimeEstimator` seam backed by a road network: ETAs are exact shortest
/// travel times on the roads at the departure hour (`RoadRouter`), and the spatial search prunes
/// with the straight line at the hour's top speed.
///
/// Invariant: `lowerBoundTravelTime(d, t) ≤ travelTime(a, b, t)` whenever `|a − b| ≥ d`, because
/// every leg of a trip (access legs, segments, shortcuts) is at least as long as its straight line and
/// no faster than `RoadRouter.topSpeed(at:)`.
public struct RoadTravelEstimator: TravelTimeEstimator {
    public let router: RoadRouter

    public init(router: RoadRouter) { self.router = router }

    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double {
        router.route(from: origin, to: destination, departingAt: time).seconds
    }

    /// The exact time when it is at most `bound`, else a value above `bound` (the searches stop early).
    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double, atMost bound: Double) -> Double {
        router.route(from: origin, to: destination, departingAt: time, atMost: bound).seconds
    }

    /// A graph search per query.
    public var queriesAreCostly: Bool { true }

    /// Length of the fastest route at free flow, metres.
    public func roadDistance(from origin: Position, to destination: Position) -> Double {
        router.route(from: origin, to: destination, departingAt: Double(router.freeFlowHour) * 3600).metres
    }

    public func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double {
        straightLineDistance / router.topSpeed(at: time)
    }

    public func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double {
        seconds * router.topSpeed(at: time)
    }
}
