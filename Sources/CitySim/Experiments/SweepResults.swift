import Foundation

/// A finished sweep: every run's record and, per grid point, each metric's mean with a 95 % confidence
/// interval (Student t over the replications). Built the same way from a local run or merged shards, so
/// both give the same tables byte for byte.
public struct SweepResults: Sendable {
    public let manifest: SweepManifest
    /// One record per run, in run-index order.
    public let records: [SweepRecord]
    /// `estimates[point][metric]` in the order of `experiment.metrics`.
    public let estimates: [[Estimate]]

    public var experiment: Experiment { manifest.experiment }

    /// Mean and 95 % confidence half-width of one metric at one grid point.
    public struct Estimate: Codable, Sendable, Equatable {
        public var mean: Double
        public var ci95HalfWidth: Double
    }

    /// Failure to assemble a sweep's results.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
        /// True when the folders are a sweep but some of its runs are not (yet) there.
        public var isIncomplete = false
    }

    /// - Parameter records: every run of the experiment, in any order.
    /// - Throws: `Problem` when a run is missing or does not belong to the sweep.
    public init(manifest: SweepManifest, records: [SweepRecord]) throws {
        let runs = manifest.experiment.runs
        var byIndex = [SweepRecord?](repeating: nil, count: runs.count)
        for record in records {
            guard record.runIndex >= 0, record.runIndex < runs.count, manifest.accepts(record, for: runs[record.runIndex]) else {
                throw Problem(description: "run \(record.runIndex) does not belong to this sweep")
            }
            byIndex[record.runIndex] = record
        }
        let missing = runs.indices.filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            let list = missing.prefix(20).map(String.init).joined(separator: ", ")
            throw Problem(description: "\(missing.count) of \(runs.count) runs missing (\(list)\(missing.count > 20 ? ", …" : ""))",
                          isIncomplete: true)
        }
        let sorted = byIndex.map { $0! }
        let experiment = manifest.experiment
        let metrics = experiment.metrics.map { SweepMetric.named($0)! }
        self.manifest = manifest
        self.records = sorted
        estimates = experiment.points.map { point in
            let runs = sorted[(point.index * experiment.replications)..<((point.index + 1) * experiment.replications)]
            return metrics.map { metric in
                let (mean, half) = Statistics.meanWithConfidence(runs.map { metric.read($0.summary) })
                return Estimate(mean: mean, ci95HalfWidth: half)
            }
        }
    }

    /// Reads the manifest and the run records of one or more sweep folders (a local run, or shards).
    /// - Throws: `Problem` when the folders hold different sweeps or runs are missing.
    public static func load(from directories: [URL]) throws -> SweepResults {
        var manifest: SweepManifest?
        var records: [Int: SweepRecord] = [:]
        for directory in directories {
            let url = directory.appendingPathComponent(SweepFiles.manifest)
            let found: SweepManifest
            do { found = try SweepManifest.read(url) } catch {
                throw Problem(description: "\(url.path): not a sweep folder (\(error.localizedDescription))")
            }
            if let manifest, !manifest.sameSweep(as: found) {
                throw Problem(description: "\(directory.path) holds a different sweep than \(directories[0].path)")
            }
            manifest = manifest ?? found
            for run in found.experiment.runs where records[run.index] == nil {
                if let record = SweepRecord.read(SweepFiles.record(directory, run.index)), found.accepts(record, for: run) {
                    records[run.index] = record
                }
            }
        }
        guard let manifest else { throw Problem(description: "no sweep folder given") }
        return try SweepResults(manifest: manifest, records: records.keys.sorted().map { records[$0]! })
    }

    public func estimate(point: Int, metric: String) -> Estimate {
        estimates[point][experiment.metrics.firstIndex(of: metric)!]
    }

    // MARK: - Files

    /// Writes `sweep.csv`, `points.csv`, `sweep.json` and `report.html` into `directory`, and the run records
    /// that are not there yet (so a merged folder is a complete, resumable sweep folder).
    public func write(to directory: URL) throws {
        let runs = directory.appendingPathComponent(SweepFiles.runs)
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        try SweepFiles.write(ResultWriter.json(manifest), to: directory.appendingPathComponent(SweepFiles.manifest))
        for record in records {
            let url = SweepFiles.record(directory, record.runIndex)
            if SweepRecord.read(url) != record { try record.write(to: url) }
        }
        try SweepFiles.write(Data(sweepCSV.utf8), to: directory.appendingPathComponent("sweep.csv"))
        try SweepFiles.write(Data(pointsCSV.utf8), to: directory.appendingPathComponent("points.csv"))
        try SweepFiles.write(ResultWriter.json(document), to: directory.appendingPathComponent("sweep.json"))
        try SweepFiles.write(Data(SweepReport.html(self).utf8), to: directory.appendingPathComponent("report.html"))
    }

    /// One row per run: run index, point, grid values, replication, seed, every metric (no wall-clock timings).
    public var sweepCSV: String {
        var out = (["run", "point"] + experiment.grid.map(\.key) + ["replication", "seed"] + experiment.metrics)
            .map(Self.csvField).joined(separator: ",") + "\n"
        let metrics = experiment.metrics.map { SweepMetric.named($0)! }
        for record in records {
            let fields = [String(record.runIndex), String(record.point)] + record.values.map(Experiment.label)
                + [String(record.replication), String(record.seed)] + metrics.map { Self.number($0.read(record.summary)) }
            out += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// One row per grid point: grid values, replications, then each metric's mean and 95 % CI half-width.
    public var pointsCSV: String {
        let header = ["point"] + experiment.grid.map(\.key) + ["replications"]
            + experiment.metrics.flatMap { ["\($0).mean", "\($0).ci95"] }
        var out = header.map(Self.csvField).joined(separator: ",") + "\n"
        for point in experiment.points {
            let fields = [String(point.index)] + point.values.map(Experiment.label) + [String(experiment.replications)]
                + estimates[point.index].flatMap { [Self.number($0.mean), Self.number($0.ci95HalfWidth)] }
            out += fields.map(Self.csvField).joined(separator: ",") + "\n"
        }
        return out
    }

    /// A CSV number: integers as such, others with 6 significant digits; deterministic.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.6g", value)
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
