import ArgumentParser
import CitySim
import TripPlanner

// Option values parsed at parse time: a bad value is a usage error naming the option, and `--help`
// lists the choices of the enumerations.

extension Criterion: ExpressibleByArgument {}
extension ResultWriter.Outputs: ExpressibleByArgument {}

extension Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public var defaultValueDescription: String { description }
}

/// plan-fleet's wait target, e.g. `p90 wait <= 300 s` or `mean wait <= 4 min` (`WaitTarget(parsing:)`).
extension WaitTarget: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

/// A share of requests in 0…1, written `2%` or `0.02`.
struct Share: ExpressibleByArgument, CustomStringConvertible {
    var fraction: Double
    init?(argument: String) {
        guard let fraction = FleetPlanner.parseShare(argument) else { return nil }
        self.fraction = fraction
    }
    var description: String { "\(plain(fraction * 100))%" }
    var defaultValueDescription: String { description }
}

/// A comma-separated list of numbers ≥ 0, e.g. `0.2,0.4,1`.
struct ScaleList: ExpressibleByArgument {
    var values: [Double]
    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0! >= 0 && $0!.isFinite }) else { return nil }
        values = parts.map { $0! }
    }
    var defaultValueDescription: String { values.map(plain).joined(separator: ",") }
}

/// A comma-separated list of hours of the day, 0–23, e.g. `6,14,22`.
struct HourList: ExpressibleByArgument {
    var hours: [Int]
    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ $0.map { (0..<24).contains($0) } ?? false }) else { return nil }
        hours = parts.map { $0! }
    }
}

/// `300` for 300.0, `0.2` for 0.2.
func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
