import DispatchCore

/// A drive on the road network as a polyline timed from its start: where the car is at any time.
///
/// The points are the trip's origin, its snapped point on the road, the nodes of the shortest path,
/// the destination's snapped point and the destination; `seconds[i]` is when the car passes
/// `points[i]` at the hour's congested speeds (the access legs at their segment's speed, as
/// `RoadRouter.route` charges them).
///
/// Invariant: `points.count == seconds.count >= 1`; `seconds` starts at 0 and never decreases; its last
/// value is the trip's travel time (`RoadRouter.route(...).seconds`, up to floating-point summation order).
public struct RoadPath: Sendable, Equatable {
    public let points: [Position]
    public let seconds: [Double]

    /// The travel time of the whole path, seconds.
    public var duration: Double { seconds[seconds.count - 1] }

    /// Where the car is `elapsed` seconds after it left: on the segment it is driving, interpolated by
    /// time (each segment at a constant speed); the first point before 0, the last after `duration`.
    /// - Complexity: O(log points).
    public func position(after elapsed: Double) -> Position {
        guard elapsed > 0 else { return points[0] }
        guard elapsed < duration else { return points[points.count - 1] }
        var low = 0, high = seconds.count - 1  // seconds[low] <= elapsed < seconds[high]
        while high - low > 1 {
            let mid = (low + high) / 2
            if seconds[mid] <= elapsed { low = mid } else { high = mid }
        }
        let span = seconds[high] - seconds[low]
        let t = span > 0 ? (elapsed - seconds[low]) / span : 1
        let a = points[low], b = points[high]
        return Position(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
    }
}
