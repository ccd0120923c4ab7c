import DispatchCore
import Testing
@testable import RoadNetwork

/// CitySim's trip files (`city.projection`) and road networks place a latitude/longitude at the same metres.
@Suite struct ProjectionAgreementTests {
    @Test("EquirectangularProjection of a city's corner and height equals LocalProjection of its extract's bounds")
    func projectionsAgree() {
        let southWest = LatLon(latitude: 60.1550, longitude: 24.9000), heightMetres = 4_200.0
        let northEast = LatLon(latitude: southWest.latitude + heightMetres / EquirectangularProjection.metresPerDegree,
                               longitude: 24.9800)
        let local = LocalProjection(southWest: southWest, northEast: northEast)
        let shared = EquirectangularProjection(southWestLatitude: southWest.latitude, southWestLongitude: southWest.longitude,
                                               cityHeightMetres: heightMetres)
        #expect(EquirectangularProjection.earthRadius == LocalProjection.earthRadius)
        for (lat, lon) in [(60.1550, 24.9000), (60.1699, 24.9384), (60.1920, 24.9790), (60.1600, 24.9100)] {
            let a = local.project(LatLon(latitude: lat, longitude: lon)), b = shared.position(latitude: lat, longitude: lon)
            #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6, "\(lat), \(lon): \(a) vs \(b)")
            let back = shared.coordinates(of: b)
            #expect(abs(back.latitude - lat) < 1e-12 && abs(back.longitude - lon) < 1e-12)
        }
    }
}
