/// Estimates driving times and road distances in the city. Hosts provide one;
/// the core uses it for ETAs (D8, D14), the closest-available-taxi search (D6)
/// and the maximum allowed delay (D9).
///
/// Invariant: `lowerBoundTravelTime(straightLineDistance: d, departingAt: t)`
/// never exceeds `travelTime(from: a, to: b, departingAt: t)` for any `a`, `b`
/// at least `d` metres apart in a straight line — the spatial search relies on it.
public protocol TravelTimeEstimator: Sendable {
    /// Estimated driving time in seconds from `origin` to `destination` leaving at `time`.
    func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double
    /// Estimated road distance in metres.
    func roadDistance(from origin: Position, to destination: Position) -> Double
    /// A lower bound on the driving time between any two points `straightLineDistance` apart.
    func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double
    /// The largest straight-line distance whose lower-bound time is at most `seconds`: the
    /// inverse of `lowerBoundTravelTime`. Points farther away cannot be reached within `seconds`,
    /// so the spatial search skips them without asking for their travel time.
    func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double
    /// `travelTime(from:to:departingAt:)` when it is at most `bound`; otherwise any value above `bound`.
    /// The closest-taxi search asks each further candidate with the slowest ETA it still keeps, so an
    /// estimator that searches (a road network) may stop as soon as it knows the answer exceeds it.
    func travelTime(from origin: Position, to destination: Position, departingAt time: Double, atMost bound: Double) -> Double
    /// Whether a travel-time query is costly (a graph search rather than arithmetic): the closest-taxi
    /// search then spends a straight-line pass to start from a good candidate and ask fewer of them.
    var queriesAreCostly: Bool { get }
}

extension TravelTimeEstimator {
    /// Arithmetic: as cheap as the straight line.
    public var queriesAreCostly: Bool { false }

    /// No early stop: the exact travel time.
    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double, atMost bound: Double) -> Double {
        travelTime(from: origin, to: destination, departingAt: time)
    }

    /// No pruning: every candidate's travel time is computed.
    public func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double { .infinity }
}

/// How road distance relates to the straight line between two points.
public enum DistanceMetric: String, Sendable, Codable, CaseIterable {
    /// Rectilinear (grid streets): |dx| + |dy|.
    case manhattan
    /// Straight line.
    case euclidean
}

/// The standard estimator: a distance metric times a detour factor, driven at
/// a speed that depends on the hour of the day (traffic).
///
/// Invariant: `detourFactor >= 1`, exactly 24 hourly speeds, each finite and > 0.
public struct GridTravelModel: TravelTimeEstimator, Equatable {
    public let metric: DistanceMetric
    public let detourFactor: Double
    /// Speed in m/s for each hour of the day 0…23.
    public let speedByHour: [Double]

    /// - Throws: `DispatchError.invalidConfiguration` on a bad factor or profile.
    public init(metric: DistanceMetric, detourFactor: Double, speedByHour: [Double]) throws(DispatchError) {
        guard detourFactor.isFinite, detourFactor >= 1 else {
            throw .invalidConfiguration("detour factor must be >= 1 (got \(detourFactor))")
        }
        guard speedByHour.count == 24, speedByHour.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            throw .invalidConfiguration("speed profile needs 24 finite speeds > 0")
        }
        self.metric = metric
        self.detourFactor = detourFactor
        self.speedByHour = speedByHour
    }

    /// A model with the same speed at every hour, in m/s.
    public init(metric: DistanceMetric = .manhattan, detourFactor: Double = 1, speed: Double) throws(DispatchError) {
        try self.init(metric: metric, detourFactor: detourFactor, speedByHour: Array(repeating: speed, count: 24))
    }

    /// Speed in m/s at simulated time `time` (seconds since midnight of day 0).
    @inlinable
    public func speed(at time: Double) -> Double {
        let hours = time / 3600
        // The usual case in integer arithmetic: for 0 <= hours < 2⁵², Int(hours) is its floor, exactly, and
        // the remainder is the same as the floating-point one below (no libm floor and fmod per query).
        if hours >= 0, hours < 4_503_599_627_370_496 { return speedByHour[Int(hours) % 24] }
        // Reduce before converting: a large finite time would overflow Int.
        let hour = Int(hours.rounded(.down).truncatingRemainder(dividingBy: 24))
        return speedByHour[hour < 0 ? hour + 24 : hour]
    }

    public func roadDistance(from origin: Position, to destination: Position) -> Double {
        switch metric {
        case .manhattan: return origin.manhattanDistance(to: destination) * detourFactor
        case .euclidean: return origin.euclideanDistance(to: destination) * detourFactor
        }
    }

    public func travelTime(from origin: Position, to destination: Position, departingAt time: Double) -> Double {
        roadDistance(from: origin, to: destination) / speed(at: time)
    }

    /// L1 ≥ L2, so the straight line times the detour factor bounds both metrics from below.
    public func lowerBoundTravelTime(straightLineDistance: Double, departingAt time: Double) -> Double {
        straightLineDistance * detourFactor / speed(at: time)
    }

    public func reachableStraightLineDistance(within seconds: Double, departingAt time: Double) -> Double {
        seconds * speed(at: time) / detourFactor
    }
}
