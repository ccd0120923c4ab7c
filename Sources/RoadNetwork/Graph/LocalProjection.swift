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
    public static let earthRadius = EquirectangularProjection.earthRadius
    /// The formulas and constants: DispatchCore's projection, which CitySim's rectangle cities state too.
    public let plane: EquirectangularProjection

    /// The south-west corner of the extract (the origin of positions).
    public var southWest: LatLon { LatLon(latitude: plane.southWestLatitude, longitude: plane.southWestLongitude) }
    /// Latitude at which east–west distances are true: the extract's middle.
    public var centreLatitude: Double { plane.referenceLatitude }

    /// A projection for points between `southWest` and `northEast`.
    public init(southWest: LatLon, northEast: LatLon) {
        plane = EquirectangularProjection(southWestLatitude: southWest.latitude, southWestLongitude: southWest.longitude,
                                          referenceLatitude: (southWest.latitude + northEast.latitude) / 2)
    }

    /// The same projection as `plane`.
    public init(_ plane: EquirectangularProjection) { self.plane = plane }

    /// The position in metres of a point.
    @inlinable
    public func project(_ point: LatLon) -> Position { plane.position(latitude: point.latitude, longitude: point.longitude) }

    /// The same projection with every position moved by `offset`: `translated(by: d).project(p)` is
    /// `project(p) + d`. Its south-west corner is the point this projection puts at `-d`; east–west distances
    /// stay true at the same latitude.
    public func translated(by offset: Position) -> LocalProjection {
        let corner = plane.coordinates(of: Position(x: -offset.x, y: -offset.y))
        return LocalProjection(EquirectangularProjection(southWestLatitude: corner.latitude, southWestLongitude: corner.longitude,
                                                         referenceLatitude: plane.referenceLatitude))
    }

    /// The point at a position in metres.
    public func unproject(_ position: Position) -> LatLon {
        let point = plane.coordinates(of: position)
        return LatLon(latitude: point.latitude, longitude: point.longitude)
    }
}
