import Foundation

/// One finished run of a sweep, as stored in `runs/<run-index>.json`: its grid point and its full summary
/// (engine timings included; the sweep tables leave them out).
public struct SweepRecord: Codable, Sendable, Equatable {
    public var runIndex: Int
    public var point: Int
    /// The grid keys and this point's values (YAML text), in grid order.
    public var keys: [String]
    public var values: [String]
    public var replication: Int
    public var seed: UInt64
    public var summary: RunSummary

    /// Reads a record; nil when the file is missing, truncated or not a record.
    static func read(_ url: URL) -> SweepRecord? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(SweepRecord.self, from: data)
    }

    /// Writes the record atomically: to a temporary name in the same folder, then renamed, so a reader
    /// (or a resumed sweep) never sees half a file.
    func write(to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
        try ResultWriter.json(self).write(to: temporary)
        try SweepFiles.rename(temporary, to: url)
    }
}

/// The description of a sweep stored beside its runs (`experiment.json`), so that `merge` can rebuild the
/// tables from shard folders without the experiment file.
public struct SweepManifest: Codable, Sendable, Equatable {
    public var experiment: Experiment
    /// The canonical hash of each grid point's scenario (see `Scenario.canonicalHash`).
    public var pointHashes: [String]
    /// The seed of each grid point's scenario (replication r of point p runs seed `pointSeeds[p]`, replication r).
    public var pointSeeds: [UInt64]

    /// Whether two manifests describe the same sweep (the scenario's absolute path may differ between machines).
    func sameSweep(as other: SweepManifest) -> Bool {
        var a = self, b = other
        a.experiment.scenarioPath = ""
        b.experiment.scenarioPath = ""
        return a == b
    }

    /// Whether `record` is the finished run `run` of this sweep.
    func accepts(_ record: SweepRecord, for run: Experiment.Run) -> Bool {
        record.runIndex == run.index && record.point == run.point && record.replication == run.replication
            && record.keys == experiment.grid.map(\.key) && record.values == experiment.points[run.point].values
            && record.seed == pointSeeds[run.point] && record.summary.scenarioHash == pointHashes[run.point]
            && record.summary.replication == run.replication
    }

    static func read(_ url: URL) throws -> SweepManifest {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(SweepManifest.self, from: Data(contentsOf: url))
    }
}

/// File names and small file operations of a sweep folder.
enum SweepFiles {
    static let manifest = "experiment.json"
    static let runs = "runs"

    static func record(_ directory: URL, _ runIndex: Int) -> URL {
        directory.appendingPathComponent(runs).appendingPathComponent("\(runIndex).json")
    }

    /// POSIX rename: atomic within a file system, replaces `destination`.
    static func rename(_ source: URL, to destination: URL) throws {
        guard Foundation.rename(source.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: source)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path,
                                                           NSLocalizedDescriptionKey: "rename failed: \(String(cString: strerror(code)))"])
        }
    }

    /// Writes data atomically (temporary name, then rename).
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        try rename(temporary, to: url)
    }
}
