/// How much slower than free flow each road class drives at each hour of the day: a travel-time
/// factor per (road class, hour). 1 is free flow; 1.5 means a segment takes 50 % longer.
///
/// Invariant: every class has exactly 24 factors, each finite and > 0.
public struct CongestionProfile: Sendable, Equatable {
    /// `factors[class.index][hour]`.
    let factors: [[Double]]

    /// Free flow at every hour.
    public static let freeFlow = CongestionProfile(uniform: Array(repeating: 1, count: 24))

    init(uniform: [Double]) {
        factors = Array(repeating: uniform, count: RoadClass.allCases.count)
    }

    /// A profile from hourly factors keyed by OSM highway value (`"primary"`, `"motorway_link"`…);
    /// `"default"` applies to classes not listed, and classes with neither key drive at free flow.
    /// - Throws: `RoadNetworkError.invalidConfiguration` naming the class and hour of a bad factor,
    ///   or an unknown class name.
    public init(hourlyFactors: [String: [Double]], field: String = "congestion") throws {
        for (key, values) in hourlyFactors {
            guard key == "default" || RoadClass(highway: key) != nil else {
                let known = RoadClass.allCases.map(\.rawValue).joined(separator: ", ")
                throw RoadNetworkError.invalidConfiguration(field: "\(field).\(key)", reason: "unknown road class (known: default, \(known))")
            }
            guard values.count == 24 else {
                throw RoadNetworkError.invalidConfiguration(field: "\(field).\(key)", reason: "needs 24 hourly factors, got \(values.count)")
            }
            for (hour, f) in values.enumerated() where !(f.isFinite && f > 0) {
                throw RoadNetworkError.invalidConfiguration(field: "\(field).\(key)[\(hour)]", reason: "factor must be finite and > 0 (got \(f))")
            }
        }
        let fallback = hourlyFactors["default"] ?? Array(repeating: 1, count: 24)
        factors = RoadClass.allCases.map { hourlyFactors[$0.rawValue] ?? fallback }
    }

    /// The factor for a class at an hour 0…23.
    public func factor(_ roadClass: RoadClass, hour: Int) -> Double { factors[roadClass.index][hour] }

    /// Hours grouped by identical factors across all classes: `metricOfHour[h]` indexes `metricHours`.
    /// Hours with the same factors share one travel-time metric (and one hierarchy).
    var metricOfHour: [Int] {
        var columns: [[Double]] = []
        var result: [Int] = []
        for hour in 0..<24 {
            let column = factors.map { $0[hour] }
            if let i = columns.firstIndex(of: column) { result.append(i) } else { columns.append(column); result.append(columns.count - 1) }
        }
        return result
    }
}

/// The hour of the day 0…23 of a simulated time in seconds since midnight of day 0.
@inlinable
func hourOfDay(_ time: Double) -> Int {
    guard time.isFinite else { return 0 }
    let hour = Int((time / 3600).rounded(.down).truncatingRemainder(dividingBy: 24))
    return hour < 0 ? hour + 24 : hour
}
