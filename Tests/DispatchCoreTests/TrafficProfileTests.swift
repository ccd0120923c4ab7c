import Testing
import TestSupport
@testable import DispatchCore

/// `GridTravelModel.speed(at:)`: the speed of the hour of the day a time falls in, on every day.
@Suite("Traffic profile by hour")
struct TrafficProfileTests {
    static let model = try! GridTravelModel(metric: .manhattan, detourFactor: 1, speedByHour: (0..<24).map { Double($0 + 1) })

    @Test("each time takes its own hour's speed: hour boundaries, later days, before midnight of day 0, huge times")
    func eachTimeTakesItsHoursSpeed() {
        for day in [0.0, 1, 6, 400] {
            for hour in 0..<24 {
                let start = day * 86_400 + Double(hour) * 3600
                for time in [start, start + 1e-6, start + 1799.5, (start + 3600).nextDown] {
                    #expect(Self.model.speed(at: time) == Double(hour + 1), "t = \(time)")
                }
            }
        }
        // Before day 0's midnight: the previous day's hours.
        #expect(Self.model.speed(at: -1) == 24 && Self.model.speed(at: -3600) == 24 && Self.model.speed(at: -3600.5) == 23)
        // Beyond the range an Int holds in hours: reduced as a floating-point remainder, never a trap.
        let huge = 1e300, hours = (huge / 3600).rounded(.down).truncatingRemainder(dividingBy: 24)
        #expect(Self.model.speed(at: huge) == Double(Int(hours) + 1))
    }
}

@Suite("Lower bounds of the travel models")
struct TravelLowerBoundTests {
    /// A cell-wide bound the closest-taxi search prunes with: for any two points at least `offsetX` apart east–west
    /// and `offsetY` north–south, the bound is at most their travel time, and the grid's is its metric's own.
    @Test("the bound over axis offsets never exceeds the travel time of points that far apart", arguments: DistanceMetric.allCases)
    func theOffsetBoundNeverExceedsTheTravelTime(metric: DistanceMetric) throws {
        let model = try GridTravelModel(metric: metric, detourFactor: 1.3,
                                        speedByHour: (0..<24).map { 5 + Double($0 % 7) })
        var random = SplitMix64(seed: 42)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        var tight = 0
        for _ in 0..<20_000 {
            let a = Position(x: uniform(0...60_000), y: uniform(0...60_000))
            let b = Position(x: uniform(0...60_000), y: uniform(0...60_000))
            let time = uniform(0...200_000)
            let dx = abs(a.x - b.x) * uniform(0...1), dy = abs(a.y - b.y) * uniform(0...1)  // at most the real offsets
            let travel = model.travelTime(from: a, to: b, departingAt: time)
            #expect(model.lowerBoundTravelTime(offsetX: dx, offsetY: dy, departingAt: time) <= travel)
            // The straight line's default bound holds too, and the grid's is never looser than it.
            let straight = (dx * dx + dy * dy).squareRoot()
            #expect(model.lowerBoundTravelTime(offsetX: dx, offsetY: dy, departingAt: time)
                    >= model.lowerBoundTravelTime(straightLineDistance: straight, departingAt: time) * (1 - 1e-12))
            if model.lowerBoundTravelTime(offsetX: abs(a.x - b.x), offsetY: abs(a.y - b.y), departingAt: time) == travel { tight += 1 }
        }
        #expect(tight > 19_000, "at the points' own offsets the bound is the travel time")
    }
}
