import DispatchCore
import Foundation
import TripPlanner

extension Scenario.Planner {
    /// The planned day's public-transport network: the GTFS feed of `transit.gtfs` (relative to the
    /// scenario file) with the services running on `date`; nil without a `transit` section.
    /// - Throws: `ScenarioError` at `planner.transit.gtfs` when the feed cannot be read or is invalid.
    func transitNetwork() throws(ScenarioError) -> TransitNetwork? {
        guard let transit else { return nil }
        let directory = URL(fileURLWithPath: source.path).appendingPathComponent(transit.gtfs)
        func failure(_ reason: String) -> ScenarioError {
            ScenarioError(file: source.file, keyPath: "planner.transit.gtfs", reason: reason)
        }
        let files: [String: String]
        do { files = try GTFSFolder.files(in: directory) } catch { throw failure("cannot read \(error.path)") }
        do {
            let feed = try GTFSFeed.read(files: files)
            return try TransitNetwork(feed: feed, date: date,
                                      projection: GeoProjection(originLatitude: transit.originLat, originLongitude: transit.originLon),
                                      transferSeconds: transit.transferSeconds)
        } catch let error as GTFSError {
            throw failure("\(directory.path)/\(error)")
        } catch {
            throw failure("\(error)")
        }
    }
}

/// Reads the files of a GTFS feed folder for `GTFSFeed.read(files:)` (TripPlanner itself does no I/O).
enum GTFSFolder {
    /// A required file of the feed that cannot be read.
    struct Unreadable: Error { var path: String }

    /// The texts of the required files and of the optional ones present, keyed by file name.
    /// - Throws: `Unreadable` with the path of the first required file missing or unreadable.
    static func files(in directory: URL) throws(Unreadable) -> [String: String] {
        var files: [String: String] = [:]
        for name in GTFSFeed.fileNames + GTFSFeed.optionalFileNames {
            let url = directory.appendingPathComponent(name)
            if let text = try? String(contentsOf: url, encoding: .utf8) {
                files[name] = text
            } else if GTFSFeed.fileNames.contains(name) {
                throw Unreadable(path: url.path)
            }
        }
        return files
    }
}
