/// Any travel model as one concrete type, for the closest-taxi index's search, which is generic over its
/// model: the grid's model is specialised into it, and every other model (a road network) goes through this
/// wrapper, which forwards each requirement to the model's own implementation through its witness table, as
/// the search did before it was generic.
///
/// Invariant: every answer is the wrapped model's.
struct AnyTravelTimeEstimator: TravelTimeEstimator {
    let base: any TravelTimeEstimator

    func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double {
        base.travelTime(from: origin, to: destination, departingAt: time)
    }

    func roadDistance(from origin: Position, to destination: Position) -> Double {
        base.roadDistance(from: origin, to: destination)
    }

    func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double {
        base.lowerBoundTravelTime(straightLineDistance: straightLineDistance, departingAt: time)
    }

    func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double {
        base.reachableStraightLineDistance(within: seconds, departingAt: time)
    }

    func travelTime(from origin: Position, to destination: Position, departingAt time: Double, atMost bound: Double) -> Double {
        base.travelTime(from: origin, to: destination, departingAt: time, atMost: bound)
    }

    var queriesAreCostly: Bool { base.queriesAreCostly }
}
