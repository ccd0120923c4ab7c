import Foundation
import TripPlanner

/// Reads a GTFS feed from disk for `GTFSFeed.read(files:)` (TripPlanner itself does no I/O): a folder of
/// `.txt` files or a `.zip` archive of them. The one loader of `citysim run`, `plan-day` and `serve`.
///
/// Invariant: the files handed to the parser are exactly the feed's files that `GTFSFeed` knows
/// (required and optional) found in the source; in an archive they may sit at its root or together in
/// one folder. Every failure is a `GTFSSourceError` naming the path (and the file, line and field
/// inside the feed) and the reason; nothing is read past the first one.
///
/// ```swift
/// let feed = try GTFSSource.feed(at: "Scenarios/gtfs/service")        // a folder
/// let zipped = try GTFSSource.feed(at: "/data/gtt.zip")                // or an archive
/// ```
public enum GTFSSource {
    /// The names `GTFSFeed` reads.
    static var knownNames: [String] { GTFSFeed.fileNames + GTFSFeed.optionalFileNames }

    /// Reads and parses the feed at `path`.
    /// - Throws: `GTFSSourceError`: an unreadable source, or the feed's first error (`GTFSError`) with the path.
    public static func feed(at path: String) throws(GTFSSourceError) -> GTFSFeed {
        let files = try files(at: path)
        do { return try GTFSFeed.read(files: files) } catch {
            throw GTFSSourceError(path: path, reason: "\(error)")
        }
    }

    /// The texts of the feed's known files at `path` (a folder, or a file whose name ends in `.zip`), keyed by name.
    /// - Throws: `GTFSSourceError` for a missing path, an unreadable file, a bad archive or text that is not UTF-8.
    public static func files(at path: String) throws(GTFSSourceError) -> [String: String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw GTFSSourceError(path: path, reason: "no such folder or file")
        }
        if isFolder.boolValue { return try folder(path) }
        guard path.lowercased().hasSuffix(".zip") else {
            throw GTFSSourceError(path: path, reason: "expected a folder of GTFS .txt files or a .zip archive of them")
        }
        return try archive(path)
    }

    private static func folder(_ path: String) throws(GTFSSourceError) -> [String: String] {
        var files: [String: String] = [:]
        for name in knownNames {
            let file = URL(fileURLWithPath: path).appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: file) else { continue }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw GTFSSourceError(path: path, reason: "\(name): cannot read the file")
            }
            files[name] = try text(Array(data), name: name, path: path)
        }
        return files
    }

    private static func archive(_ path: String) throws(GTFSSourceError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GTFSSourceError(path: path, reason: "cannot read the file")
        }
        do {
            let archive = try ZipArchive(bytes: Array(data))
            // The feed's files at the root, or all in one folder (an archive of the feed's folder).
            let byName = Dictionary(archive.entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var prefix = ""
            if !knownNames.contains(where: { byName[$0] != nil }),
               let stops = archive.entries.first(where: { $0.name.hasSuffix("/stops.txt") }) {
                prefix = String(stops.name.dropLast("stops.txt".count))
            }
            var files: [String: String] = [:]
            for name in knownNames {
                guard let entry = byName[prefix + name] else { continue }
                files[name] = try text(try archive.contents(of: entry), name: name, path: path)
            }
            return files
        } catch let failure as ZipArchive.Failure {
            throw GTFSSourceError(path: path, reason: failure.reason)
        } catch let error as GTFSSourceError {
            throw error
        } catch {
            throw GTFSSourceError(path: path, reason: "\(error)")
        }
    }

    /// UTF-8 text (a byte-order mark is left for the CSV reader to drop).
    private static func text(_ bytes: [UInt8], name: String, path: String) throws(GTFSSourceError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GTFSSourceError(path: path, reason: "\(name): not UTF-8 text")
        }
        return text
    }
}

/// A GTFS feed that cannot be loaded: the folder or archive, and why (the reason names the file, line
/// and field inside the feed when the feed itself is at fault).
public struct GTFSSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
