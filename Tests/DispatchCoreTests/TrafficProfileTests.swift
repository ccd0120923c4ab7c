import Testing
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
