import Foundation

/// Latitude and longitude to the city plane and back: an equirectangular projection whose
/// origin is the city's south-west corner, so positions are metres east and north of it, as
/// `Position` expects.
///
/// `x = R · cos(φ₀) · (λ − λ_sw)` and `y = R · (φ − φ_sw)` in metres, with `R` = 6,371,008.8 m (the
/// mean Earth radius) and `φ₀` the reference latitude (where east–west distances are true; a city's
/// centre). These are `RoadNetwork.LocalProjection`'s formulas: with the same corner and `φ₀` the
/// centre latitude of its extract, the two give the same positions (a test pins it). Over a city
/// (≈ 20 km) the scale error is below 0.1 %; it is not meant for countries.
///
/// Pure value type, no I/O: it lives in DispatchCore so that CitySim (trip files, `city.projection`)
/// and RoadNetwork can share it without CitySim importing RoadNetwork.
///
/// Invariant: `position(latitude:longitude:)` and `coordinates(of:)` are exact inverses (up to
/// floating-point rounding).
///
/// ```swift
/// let projection = EquirectangularProjection(southWestLatitude: 40.70, southWestLongitude: -74.02,
///                                            referenceLatitude: 40.75)
/// let p = projection.position(latitude: 40.7580, longitude: -73.9855)   // Times Square, ≈ (2 906, 6 449) m
/// ```
public struct EquirectangularProjection: Sendable, Equatable {
    /// The mean Earth radius, metres.
    public static let earthRadius = 6_371_008.8
    /// Metres per degree of latitude (and of longitude on the equator).
    public static let metresPerDegree = earthRadius * Double.pi / 180

    /// Latitude of the origin (the city's south-west corner), degrees.
    public let southWestLatitude: Double
    /// Longitude of the origin, degrees.
    public let southWestLongitude: Double
    /// Latitude at which east–west distances are true, degrees.
    public let referenceLatitude: Double
    /// Metres per degree of longitude at the reference latitude.
    public let metresPerDegreeLongitude: Double

    /// A projection with its origin at (`southWestLatitude`, `southWestLongitude`), true east–west
    /// at `referenceLatitude`.
    public init(southWestLatitude: Double, southWestLongitude: Double, referenceLatitude: Double) {
        self.southWestLatitude = southWestLatitude
        self.southWestLongitude = southWestLongitude
        self.referenceLatitude = referenceLatitude
        metresPerDegreeLongitude = Self.metresPerDegree * cos(referenceLatitude * Double.pi / 180)
    }

    /// The projection of a city whose south-west corner is given and which is `heightMetres` tall:
    /// true east–west at the city's middle latitude (as `LocalProjection` is at its extract's).
    public init(southWestLatitude: Double, southWestLongitude: Double, cityHeightMetres: Double) {
        self.init(southWestLatitude: southWestLatitude, southWestLongitude: southWestLongitude,
                  referenceLatitude: southWestLatitude + cityHeightMetres / 2 / Self.metresPerDegree)
    }

    /// The position, metres east and north of the south-west corner, of a point.
    @inlinable
    public func position(latitude: Double, longitude: Double) -> Position {
        Position(x: (longitude - southWestLongitude) * metresPerDegreeLongitude,
                 y: (latitude - southWestLatitude) * Self.metresPerDegree)
    }

    /// The latitude and longitude, degrees, of a position.
    public func coordinates(of position: Position) -> (latitude: Double, longitude: Double) {
        (southWestLatitude + position.y / Self.metresPerDegree, southWestLongitude + position.x / metresPerDegreeLongitude)
    }
}
