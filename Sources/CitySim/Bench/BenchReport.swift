import Foundation

/// The result of `citysim bench`: a base scenario run over a fixed matrix of
/// demand and fleet factors, each cell in its own process, with the machine it
/// ran on and the fitted growth exponents. Written as `Results/bench/<name>.json`.
public struct BenchReport: Codable, Sendable {
    public var name: String
    /// The base scenario file and the overrides every cell starts from.
    public var baseScenario: String
    public var baseOverrides: [String]
    public var command: String
    public var machine: BenchMachine
    public var demandFactors: [Double]
    public var fleetFactors: [Double]
    public var cells: [BenchCell]
    /// Cells not run, with the reason (too slow for the matrix's time cap).
    public var dropped: [String]
    public var fits: [BenchFit]

    public init(name: String, baseScenario: String, baseOverrides: [String], command: String, machine: BenchMachine,
                demandFactors: [Double], fleetFactors: [Double], cells: [BenchCell], dropped: [String]) {
        self.name = name
        self.baseScenario = baseScenario
        self.baseOverrides = baseOverrides
        self.command = command
        self.machine = machine
        self.demandFactors = demandFactors
        self.fleetFactors = fleetFactors
        self.cells = cells
        self.dropped = dropped
        fits = BenchFit.all(cells)
    }

    /// The exponents as printed by the command, one line each.
    public var fitTable: String {
        var lines = ["growth exponents (least squares of log y on log x; 1 = linear):"]
        for fit in fits {
            let at = fit.held == "fleet" ? "fleet ×\(Fmt.number(fit.heldFactor))" : "demand ×\(Fmt.number(fit.heldFactor))"
            lines.append("  \(fit.y) ~ \(fit.x)^" + String(format: "%.2f", fit.exponent) + "  at \(at) (\(fit.points) points)")
        }
        return lines.joined(separator: "\n")
    }
}

/// One cell of the matrix: what the simulation did and what it cost.
public struct BenchCell: Codable, Sendable {
    public var demandFactor: Double
    public var fleetFactor: Double
    /// Requests generated after the warm-up (the summary's `requests.generated`).
    public var requests: Int
    /// Taxis that worked during the run (the summary's `fleet.taxis`).
    public var taxis: Int
    /// Taxis of the scaled fleet, on shift during the run or not (each is added to the core).
    public var taxisConfigured: Int
    public var events: Int
    /// The summary's `engine.wall_s`: the fastest of the repeats.
    public var wallS: Double
    /// `engine.wall_s` of every repeat, in order.
    public var wallSRuns: [Double]
    public var eventsPerS: Double
    /// CPU time (user + system) of the process during the run, s: the fastest of the repeats.
    /// On a shared machine this is steadier than wall time, which includes waiting for a core.
    public var cpuS: Double
    /// Peak resident set of the cell's process (VmHWM), MiB: the largest over the repeats.
    public var peakRssMebibytes: Double

    public init(demandFactor: Double, fleetFactor: Double, summary: RunSummary, taxisConfigured: Int,
                cpuS: Double, peakRssMebibytes: Double) {
        self.cpuS = cpuS
        self.demandFactor = demandFactor
        self.fleetFactor = fleetFactor
        requests = summary.requests.generated
        taxis = summary.fleet.taxis
        self.taxisConfigured = taxisConfigured
        events = summary.engine.events
        wallS = summary.engine.wallS
        wallSRuns = [summary.engine.wallS]
        eventsPerS = summary.engine.eventsPerS
        self.peakRssMebibytes = peakRssMebibytes
    }

    /// Folds another repeat of the same cell in: the fastest wall time, the largest peak memory.
    public mutating func merge(_ other: BenchCell) {
        wallSRuns += other.wallSRuns
        if other.wallS < wallS {
            wallS = other.wallS
            eventsPerS = other.eventsPerS
        }
        cpuS = min(cpuS, other.cpuS)
        peakRssMebibytes = max(peakRssMebibytes, other.peakRssMebibytes)
    }
}

/// A fitted growth exponent: `y ∝ x^exponent` with the other factor held.
public struct BenchFit: Codable, Sendable {
    /// "wall_s" or "peak_rss_mib".
    public var y: String
    /// "requests" or "taxis".
    public var x: String
    /// The factor held fixed: "fleet" (x = requests) or "demand" (x = taxis).
    public var held: String
    public var heldFactor: Double
    public var exponent: Double
    public var points: Int

    /// Least-squares slope of log y on log x; nil with fewer than two distinct x.
    public static func slope(_ points: [(x: Double, y: Double)]) -> Double? {
        let logs = points.filter { $0.x > 0 && $0.y > 0 }.map { (log($0.x), log($0.y)) }
        guard logs.count >= 2 else { return nil }
        let n = Double(logs.count)
        let mx = logs.map(\.0).reduce(0, +) / n, my = logs.map(\.1).reduce(0, +) / n
        let sxx = logs.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        guard sxx > 0 else { return nil }
        return logs.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +) / sxx
    }

    /// Wall time and peak memory against requests (each fleet factor) and against taxis (each demand factor).
    static func all(_ cells: [BenchCell]) -> [BenchFit] {
        var fits: [BenchFit] = []
        let metrics: [(String, (BenchCell) -> Double)] = [("wall_s", { $0.wallS }), ("cpu_s", { $0.cpuS }), ("peak_rss_mib", { $0.peakRssMebibytes })]
        for (name, value) in metrics {
            for fleet in Set(cells.map(\.fleetFactor)).sorted() {
                let row = cells.filter { $0.fleetFactor == fleet }
                if let e = slope(row.map { (Double($0.requests), value($0)) }) {
                    fits.append(BenchFit(y: name, x: "requests", held: "fleet", heldFactor: fleet, exponent: e, points: row.count))
                }
            }
            for demand in Set(cells.map(\.demandFactor)).sorted() {
                let column = cells.filter { $0.demandFactor == demand }
                if let e = slope(column.map { (Double($0.taxis), value($0)) }) {
                    fits.append(BenchFit(y: name, x: "taxis", held: "demand", heldFactor: demand, exponent: e, points: column.count))
                }
            }
        }
        return fits
    }
}

/// The machine a benchmark ran on (from /proc on Linux).
public struct BenchMachine: Codable, Sendable {
    public var nproc: Int
    public var cpuModel: String
    public var memTotalGibibytes: Double
    /// 1-minute load average when the benchmark started: other work shares the machine.
    public var loadAverage: Double?
    public var commit: String?
    public var date: String

    /// The current machine; `commit` comes from the caller (the CLI knows the checkout).
    public static func current(commit: String?) -> BenchMachine {
        func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        let cpuinfo = read("/proc/cpuinfo").split(separator: "\n")
        let model = cpuinfo.first { $0.hasPrefix("model name") }?.split(separator: ":", maxSplits: 1).last
        let memKiB = read("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal:") }?
            .split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        let load = read("/proc/loadavg").split(separator: " ").first.flatMap { Double($0) }
        let formatter = ISO8601DateFormatter()
        return BenchMachine(nproc: ProcessInfo.processInfo.activeProcessorCount,
                            cpuModel: model.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown",
                            memTotalGibibytes: (memKiB / 1_048_576 * 10).rounded() / 10, loadAverage: load,
                            commit: commit, date: formatter.string(from: Date()))
    }

    /// CPU time (user + system) this process has used so far, s.
    public static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// This process's peak resident set (VmHWM) in MiB, or nil where /proc is missing.
    public static func peakResidentMiB() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return nil }
        return kib / 1024
    }
}
