import Foundation
import DispatchCore

/// The radius screen of `CityModel.drawDestination`'s hotspot proposals: a proposal's radius alone can show
/// that no point of its circle lies in the trip-length band, and then its angle, `cos`, `sin` and the zone
/// lookup are not needed.
///
/// It changes no draw. A screened proposal consumes the same two numbers (radius, angle) that drawing the
/// point would, and is rejected exactly when the point would have been; an unscreened one is the same
/// point, computed by the same `point(centre:r:v:)`. It applies only to a disc wholly inside the zones of a
/// grid city, where `drawHotspot` never draws again. A proposal from a disc the origin sits in, on a band
/// starting beyond the disc's diameter, is always rejected: megacity's 0.4-km main station with trips of
/// 1–4 km took about 145 such proposals per trip (Results/bench/speed.md).
///
/// Invariant: `circleMayMeetBand` is false only when every point of the circle is, in the trip metric,
/// more than `slack` metres outside the band, so rounding in the point's computation cannot make a
/// screened proposal one that would have been accepted.
enum HotspotScreen {
    /// Metres of margin on every bound (rounding of the point's coordinates is far below a millimetre).
    static let slack = 1.0

    /// The point at distance `r` from `centre`, at the angle 2π·`v`: how every hotspot place is laid.
    @inline(__always)
    static func point(centre: Position, r: Double, v: Double) -> Position {
        let angle = 2 * Double.pi * v
        return Position(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle))
    }

    /// Whether some point of the circle of radius `r` around `centre` may lie in [`minimum`, `maximum`] from
    /// `origin`. Triangle inequality: a point p of the circle is within d(origin, centre) ± d(centre, p),
    /// where d(centre, p) is `r` in a straight line and at most `r`·√2 in Manhattan distance.
    @inline(__always)
    static func circleMayMeetBand(origin: Position, centre: Position, radius r: Double, manhattan: Bool,
                                  minimum: Double, maximum: Double) -> Bool {
        let toCentre = manhattan ? origin.manhattanDistance(to: centre) : origin.euclideanDistance(to: centre)
        let spread = manhattan ? r * 2.0.squareRoot() : r
        return toCentre + spread + slack >= minimum && toCentre - spread - slack <= maximum
    }

    /// Whether the disc lies wholly inside the zones, with `slack` to spare: only square zones (plain or cut)
    /// cover their bounding rectangle without gaps, so other layouts are never screened.
    static func discInside(_ layout: ZoneLayout, bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                           centre: Position, radius: Double) -> Bool {
        guard layout.shape == .square || layout.shape == .cutSquares else { return false }
        let reach = radius + slack
        let box = [Position(x: centre.x - reach, y: centre.y - reach), Position(x: centre.x + reach, y: centre.y - reach),
                   Position(x: centre.x - reach, y: centre.y + reach), Position(x: centre.x + reach, y: centre.y + reach)]
        return box.allSatisfy { $0.x >= bounds.minX && $0.x <= bounds.maxX && $0.y >= bounds.minY && $0.y <= bounds.maxY
            && layout.zoneIndex(at: $0) != nil }
    }
}
