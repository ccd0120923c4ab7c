/// A point in the city plane, in metres from the city's south-west corner.
///
/// Invariant: none by itself; `CityGeometry.zone(of:)` is what rejects points
/// that are not finite or lie outside the city.
public struct Position: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Metres east of the city's west edge.
    public var x: Double
    /// Metres north of the city's south edge.
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Straight-line (Euclidean) distance in metres.
    @inlinable
    public func euclideanDistance(to other: Position) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Rectilinear (Manhattan, L1) distance in metres.
    @inlinable
    public func manhattanDistance(to other: Position) -> Double {
        abs(x - other.x) + abs(y - other.y)
    }

    public var description: String { "(\(x) m, \(y) m)" }
}
