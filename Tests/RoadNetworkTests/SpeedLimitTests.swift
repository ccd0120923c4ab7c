import Testing
@testable import RoadNetwork

/// `maxspeed` values become km/h; unusable ones fall back to the road class default.
@Suite struct SpeedLimitTests {
    @Test("plain numbers and km/h units are km/h")
    func kilometresPerHour() {
        #expect(SpeedLimit.kmh("50") == 50)
        #expect(SpeedLimit.kmh("50 km/h") == 50)
        #expect(SpeedLimit.kmh("80kmh") == 80)
    }

    @Test("mph and knots are converted")
    func imperialUnits() {
        #expect(abs(SpeedLimit.kmh("30 mph")! - 48.28032) < 1e-9)
        #expect(abs(SpeedLimit.kmh("10 knots")! - 18.52) < 1e-9)
    }

    @Test("walk is walking pace; none and junk give no limit")
    func wordValues() {
        #expect(SpeedLimit.kmh("walk") == SpeedLimit.walkKmh)
        #expect(SpeedLimit.kmh("none") == nil)
        #expect(SpeedLimit.kmh("fast") == nil)
        #expect(SpeedLimit.kmh("-20") == nil)
        #expect(SpeedLimit.kmh("") == nil)
    }

    @Test("country zones use that country's limits, unknown countries the generic ones")
    func countryZones() {
        #expect(SpeedLimit.kmh("FI:urban") == 50)
        #expect(SpeedLimit.kmh("FI:rural") == 80)
        #expect(SpeedLimit.kmh("DE:rural") == 100)
        #expect(SpeedLimit.kmh("XX:rural") == 90)
        #expect(SpeedLimit.kmh("DE:zone30") == 30)
    }

    @Test("a list of limits gives the lowest")
    func lists() {
        #expect(SpeedLimit.kmh("50;30") == 30)
    }
}
