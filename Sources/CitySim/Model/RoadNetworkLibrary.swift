import Foundation
import RoadNetwork
import Synchronization

/// The road networks this process has read, one per file: a scenario is read (and its network
/// loaded for its bounding box) before each run, replication or sweep point is built, and reading
/// an extract again each time would cost more than the run of a small city.
///
/// Invariant: `graph(path:)` returns the graph `RoadGraphBuilder.load(path:)` built from the file at
/// the first call for that path in this process (files are not re-read if they change meanwhile).
enum RoadNetworkLibrary {
    private static let graphs = Mutex<[String: RoadGraph]>([:])

    /// The drivable graph of an `.osm.pbf` or `.osm` file.
    /// - Throws: a description-bearing error when the file is missing, unreadable, malformed or has no road.
    static func graph(path: String) throws -> RoadGraph {
        if let known = graphs.withLock({ $0[path] }) { return known }
        guard FileManager.default.fileExists(atPath: path) else { throw MissingFile(path: path) }
        let graph = try RoadGraphBuilder.load(path: path).graph
        graphs.withLock { $0[path] = graph }
        return graph
    }

    /// The network file does not exist.
    struct MissingFile: Error, CustomStringConvertible {
        let path: String
        var description: String { "no such file" }
    }
}
