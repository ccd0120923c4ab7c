/// The estimator one closest-taxi search asks when travel-time queries are costly (a road network's
/// graph search): it knows an ETA the answer cannot exceed — first that of the straight-line nearest
/// eligible spot, then the best the search has kept — and answers only whether a spot beats it.
///
/// `AvailableTaxiIndex.nearest` (limit 1) tells it the best kept so far through
/// `reachableStraightLineDistance(within:)`, which the walk calls with that ETA each time its list is full.
///
/// Invariant: `travelTime` is exact when the true time is at most `bound`, and above `bound` otherwise
/// (infinity when the straight line alone rules it out); `bound` only falls, and is always the ETA of
/// an eligible spot, so the search's single best is exact. One search, one thread: not shared.
final class BoundedETAs: TravelTimeEstimator, @unchecked Sendable {
    let inner: any TravelTimeEstimator
    private(set) var bound: Double
    /// Where the first bound was measured from, and that ETA: the walk meets that spot again.
    let seed: Position, seedETA: Double

    /// Bounded by `seedETA`, the time from `seed` (a spot with an eligible taxi) to the search's point.
    init(_ inner: any TravelTimeEstimator, seed: Position, seedETA: Double) {
        self.inner = inner
        self.seed = seed
        self.seedETA = seedETA
        bound = seedETA
    }

    func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double {
        if origin == seed { return seedETA }
        let straight = origin.euclideanDistance(to: destination)
        if inner.lowerBoundTravelTime(straightLineDistance: straight, departingAt: time) > bound { return .infinity }
        return inner.travelTime(from: origin, to: destination, departingAt: time, atMost: bound)
    }

    func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double {
        bound = min(bound, seconds)
        return inner.reachableStraightLineDistance(within: seconds, departingAt: time)
    }

    func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double {
        inner.lowerBoundTravelTime(straightLineDistance: straightLineDistance, departingAt: time)
    }

    func roadDistance(from origin: Position, to destination: Position) -> Double {
        inner.roadDistance(from: origin, to: destination)
    }

    var queriesAreCostly: Bool { true }
}
