import Foundation

/// The outcome of a load run: per endpoint, calls, throughput and latency
/// percentiles from its HDR histogram, and errors by status; written as a table
/// for people and as JSON (`--out`) for the record.
///
/// Invariant: every figure is derived from the histograms and counts it was built
/// from; latencies are in milliseconds, throughput in calls per second of `seconds`.
public struct LoadReport: Codable, Sendable, Equatable {
    /// One endpoint's line of the report.
    public struct Endpoint: Codable, Sendable, Equatable {
        public var endpoint: String
        public var count: Int
        public var throughputPerS: Double
        public var p50Ms: Double
        public var p90Ms: Double
        public var p99Ms: Double
        public var maxMs: Double
        /// Calls by error status ("0" = no answer), as strings for JSON.
        public var errors: [String: Int]
    }

    public var mode: String
    /// Wall-clock seconds the measured phase lasted.
    public var seconds: Double
    public var concurrency: Int
    public var endpoints: [Endpoint]
    /// Free-form facts about the run (URL, speed, scenario, commit, end-state verdict).
    public var notes: [String: String]

    /// - Parameters:
    ///   - endpoints: the recorder's snapshot; sorted by name in the report.
    ///   - seconds: the measured wall-clock time (> 0).
    public init(mode: String, seconds: Double, concurrency: Int, endpoints: [String: EndpointStats],
                notes: [String: String] = [:]) {
        self.mode = mode
        self.seconds = seconds
        self.concurrency = concurrency
        self.notes = notes
        self.endpoints = endpoints.sorted { $0.key < $1.key }.map { name, stats in
            let h = stats.histogram
            func ms(_ micros: UInt64) -> Double { h.totalCount == 0 ? 0 : Double(micros) / 1000 }
            return Endpoint(
                endpoint: name, count: stats.calls,
                throughputPerS: seconds > 0 ? (Double(stats.calls) / seconds * 10).rounded() / 10 : 0,
                p50Ms: ms(h.valueAtPercentile(50)), p90Ms: ms(h.valueAtPercentile(90)),
                p99Ms: ms(h.valueAtPercentile(99)), maxMs: ms(h.max),
                errors: Dictionary(uniqueKeysWithValues: stats.errors.map { (String($0.key), $0.value) }))
        }
    }

    /// The line of one endpoint, if it was called.
    public func endpoint(_ name: String) -> Endpoint? { endpoints.first { $0.endpoint == name } }

    /// A fixed-width table, one line per endpoint.
    public var table: String {
        func cell(_ text: String, _ width: Int, left: Bool = false) -> String {
            let pad = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + pad : pad + text
        }
        func number(_ value: Double) -> String { String(format: "%.2f", value) }
        let header = [cell("endpoint", 38, left: true), cell("count", 9), cell("per s", 9), cell("p50 ms", 9),
                      cell("p90 ms", 9), cell("p99 ms", 9), cell("max ms", 9), "  errors"].joined()
        var lines = [header]
        for e in endpoints {
            let errors = e.errors.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
            lines.append([cell(e.endpoint, 38, left: true), cell("\(e.count)", 9), cell(String(format: "%.1f", e.throughputPerS), 9),
                          cell(number(e.p50Ms), 9), cell(number(e.p90Ms), 9), cell(number(e.p99Ms), 9),
                          cell(number(e.maxMs), 9), "  " + errors].joined())
        }
        return lines.joined(separator: "\n")
    }

    /// Pretty, key-sorted JSON in snake_case.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
