import DispatchCore
import RoadNetwork

/// How the simulated city's taxis travel: the textbook grid (a metric times a detour factor at the
/// hour's speed) or a real road network (shortest paths by hour on its roads).
///
/// An enum rather than an existential so the simulator's own calls (ride times, idle drift) stay a
/// switch over two known cases: a grid city pays no dynamic dispatch it did not pay before. The
/// dispatch core is handed the wrapped model itself (`estimator`).
///
/// Invariant: the same answers as the wrapped model, call for call.
public enum CityTravel: TravelTimeEstimator {
    case grid(GridTravelModel)
    case road(RoadTravelEstimator)

    /// The wrapped model, for the dispatch core's `TravelTimeEstimator` seam.
    public var estimator: any TravelTimeEstimator {
        switch self {
        case .grid(let model): return model
        case .road(let model): return model
        }
    }

    /// The road router of a road city, nil on the grid.
    public var router: RoadRouter? {
        if case .road(let model) = self { return model.router }
        return nil
    }

    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double {
        switch self {
        case .grid(let model): return model.travelTime(from: origin, to: destination, departingAt: time)
        case .road(let model): return model.travelTime(from: origin, to: destination, departingAt: time)
        }
    }

    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double, atMost bound: Double) -> Double {
        switch self {
        case .grid(let model): return model.travelTime(from: origin, to: destination, departingAt: time, atMost: bound)
        case .road(let model): return model.travelTime(from: origin, to: destination, departingAt: time, atMost: bound)
        }
    }

    public var queriesAreCostly: Bool { router != nil }

    public func roadDistance(from origin: Position, to destination: Position) -> Double {
        switch self {
        case .grid(let model): return model.roadDistance(from: origin, to: destination)
        case .road(let model): return model.roadDistance(from: origin, to: destination)
        }
    }

    public func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double {
        switch self {
        case .grid(let model): return model.lowerBoundTravelTime(straightLineDistance: straightLineDistance, departingAt: time)
        case .road(let model): return model.lowerBoundTravelTime(straightLineDistance: straightLineDistance, departingAt: time)
        }
    }

    public func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double {
        switch self {
        case .grid(let model): return model.reachableStraightLineDistance(within: seconds, departingAt: time)
        case .road(let model): return model.reachableStraightLineDistance(within: seconds, departingAt: time)
        }
    }
}
