import DispatchCore
import Foundation

/// The local map projection of a road network: equirectangular around the extract's centre.
///
/// `x = R · cos(φ₀) · (λ − λ_west)` and `y = R · (φ − φ_south)` in metres, with `R` = 6,371,008.8 m
/// (the mean Earth radius) and `φ₀` the latitude of the extract's centre. So positions are metres
/// east of the west edge and north of the south edge, as `DispatchCore.Position` expects.
/// Over a city (≈ 20 km) the scale error is below 0.1 %; it is not meant for countries.
///
/// Invariant: `project` and `unproject` are exact inverses (up to floating-point rounding).
public struct LocalProjection: Sendable, Equatable {
    public static let earthRadius = 6_371_008.8
    public let southWest: LatLon
    public let centreLatitude: Double
    @usableFromInline let metresPerDegreeLat: Double
    @usableFromInline let metresPerDegreeLon: Double

    /// A projection for points between `southWest` and `northEast`.
    public init(southWest: LatLon, northEast: LatLon) {
        self.southWest = southWest
        centreLatitude = (southWest.latitude + northEast.latitude) / 2
        metresPerDegreeLat = Self.earthRadius * Double.pi / 180
        metresPerDegreeLon = metresPerDegreeLat * cos(centreLatitude * Double.pi / 180)
    }

    /// The same projection as `plane` (DispatchCore's value type, which CitySim's rectangle cities state).
    public init(_ plane: EquirectangularProjection) {
        southWest = LatLon(latitude: plane.southWestLatitude, longitude: plane.southWestLongitude)
        centreLatitude = plane.referenceLatitude
        metresPerDegreeLat = Self.earthRadius * Double.pi / 180
        metresPerDegreeLon = metresPerDegreeLat * cos(centreLatitude * Double.pi / 180)
    }

    /// This projection as DispatchCore's `EquirectangularProjection` (the same formulas and constants).
    public var plane: EquirectangularProjection {
        EquirectangularProjection(southWestLatitude: southWest.latitude, southWestLongitude: southWest.longitude,
                                  referenceLatitude: centreLatitude)
    }

    /// The position in metres of a point.
    @inlinable
    public func project(_ point: LatLon) -> Position {
        Position(x: (point.longitude - southWest.longitude) * metresPerDegreeLon,
                 y: (point.latitude - southWest.latitude) * metresPerDegreeLat)
    }

    /// The point at a position in metres.
    public func unproject(_ position: Position) -> LatLon {
        LatLon(latitude: southWest.latitude + position.y / metresPerDegreeLat,
               longitude: southWest.longitude + position.x / metresPerDegreeLon)
    }
}
