/// A wait target of `plan-fleet`: a statistic of each hour's waits and its upper limit, in seconds.
///
/// Invariant: `limitS` is finite and > 0.
///
/// ```swift
/// let target = try WaitTarget(parsing: "p95 wait <= 6 min")   // .p95, 360 s
/// target.description                                          // "p95 wait <= 360 s"
/// ```
public struct WaitTarget: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The hourly wait statistic a target limits.
    public enum Statistic: String, Sendable, CaseIterable, Codable {
        case mean, p50, p90, p95, p99

        /// This statistic of one hour's served waits.
        func value(of hour: RunSummary.HourFigures) -> Double {
            switch self {
            case .mean: hour.meanWaitS
            case .p50: hour.p50WaitS
            case .p90: hour.p90WaitS
            case .p95: hour.p95WaitS
            case .p99: hour.p99WaitS
            }
        }
    }

    public var statistic: Statistic
    public var limitS: Double

    public init(statistic: Statistic, limitS: Double) {
        self.statistic = statistic
        self.limitS = limitS
    }

    /// Why a target does not parse.
    public struct ParseError: Error, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String {
            "cannot read the target '\(text)': \(reason); write for example \"p90 wait <= 300 s\", \"mean wait <= 4 min\" or \"p95 <= 600\""
        }
    }

    /// Parses `[STAT] [wait] [<=|≤|<] NUMBER [s|sec|seconds|min|minutes]`, case and spaces free. STAT is one of
    /// `mean`, `p50` (or `median`), `p90`, `p95`, `p99`; without one the statistic is p90.
    /// - Throws: `ParseError` naming what is wrong (unknown statistic, missing or non-positive limit, unknown unit).
    public init(parsing text: String) throws(ParseError) {
        var rest = Substring(text.lowercased().replacingOccurrences(of: " ", with: ""))
        var statistic = Statistic.p90
        if let first = rest.first, first.isLetter {
            var word = rest.prefix { $0.isLetter || $0.isNumber }
            if word != "wait", word.hasSuffix("wait") { word = word.dropLast(4) }   // spaces are gone: "p95wait"
            let name = word == "median" ? "p50" : String(word)
            if let known = Statistic(rawValue: name) {
                statistic = known
                rest.removeFirst(word.count)
            } else if word != "wait" {
                throw ParseError(text: text, reason: "unknown statistic '\(word)' (known: \(Statistic.allCases.map(\.rawValue).joined(separator: ", ")), median)")
            }
        }
        for prefix in ["_wait", "wait"] where rest.hasPrefix(prefix) { rest.removeFirst(prefix.count); break }
        for op in ["<=", "≤", "<", "="] where rest.hasPrefix(op) { rest.removeFirst(op.count); break }
        let number = rest.prefix { $0.isNumber || $0 == "." || $0 == "e" || $0 == "+" || $0 == "-" }
        guard !number.isEmpty else { throw ParseError(text: text, reason: "no limit in seconds or minutes") }
        guard let value = Double(number), value.isFinite, value > 0 else {
            throw ParseError(text: text, reason: "the limit '\(number)' is not a number > 0")
        }
        let unit = rest.dropFirst(number.count)
        let factor: Double
        switch unit {
        case "", "s", "sec", "secs", "second", "seconds": factor = 1
        case "m", "min", "mins", "minute", "minutes": factor = 60
        default: throw ParseError(text: text, reason: "unknown unit '\(unit)' (s or min)")
        }
        self.init(statistic: statistic, limitS: value * factor)
    }

    public var description: String { "\(statistic.rawValue) wait <= \(limitS.formatted0) s" }
}

extension Double {
    /// The number without a fractional part when it has none ("300", "12.5").
    var formatted0: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
