import ArgumentParser
import DispatchCore
import Foundation
import RoadNetwork
import TestSupport

/// `roadnet`: inspect an OpenStreetMap extract as citysim sees it, and export it for checking.
@main
struct RoadnetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roadnet",
        abstract: "Read an OpenStreetMap extract (.osm.pbf or .osm) into citysim's drivable road network.",
        subcommands: [Report.self, Route.self, Export.self])

    /// Loads a network, or exits non-zero with the reader's message on standard error.
    static func load(_ path: String) throws -> (graph: RoadGraph, report: NetworkReport, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (graph, report) = try RoadGraphBuilder.load(path: path)
            let elapsed = start.duration(to: clock.now)
            return (graph, report, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        } catch let error as RoadNetworkError {
            throw ValidationError(error.description)
        }
    }
}

/// Prints what was kept and dropped, and how long reading and contracting took.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Counts of nodes, edges and dropped parts; load and contraction times.")
    @Argument(help: "The .osm.pbf or .osm file.") var file: String

    func run() throws {
        let (graph, report, seconds) = try RoadnetCommand.load(file)
        print(report)
        print(String(format: "read and built in %.3f s", seconds))
        let clock = ContinuousClock()
        let start = clock.now
        let router = RoadRouter(graph: graph)
        print("contracted in \(start.duration(to: clock.now)): \(router.hierarchyArcCount) hierarchy arcs")
    }
}

/// One route between two lat/lon points.
struct Route: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Travel time and distance between two points given as lat,lon.")
    @Argument(help: "The .osm.pbf or .osm file.") var file: String
    @Argument(help: "Origin as lat,lon.") var origin: String
    @Argument(help: "Destination as lat,lon.") var destination: String
    @Option(help: "Departure hour 0-23.") var hour = 12

    static func point(_ text: String, _ name: String) throws -> LatLon {
        let parts = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, (-90...90).contains(parts[0]), (-180...180).contains(parts[1]) else {
            throw ValidationError("\(name): expected lat,lon in degrees (got \"\(text)\")")
        }
        return LatLon(latitude: parts[0], longitude: parts[1])
    }

    func run() throws {
        let a = try Self.point(origin, "origin"), b = try Self.point(destination, "destination")
        let (graph, _, _) = try RoadnetCommand.load(file)
        let router = RoadRouter(graph: graph)
        let p = graph.projection.project(a), q = graph.projection.project(b)
        let route = router.route(from: p, to: q, departingAt: Double(hour) * 3600)
        print(String(format: "%.1f s, %.0f m (snapped %.0f m and %.0f m from the road)",
                     route.seconds, route.metres, router.snap(p).distance, router.snap(q).distance))
    }
}

/// Writes the graph and contraction-hierarchy answers for random node pairs, for an independent router to check.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write edges.csv (tail,head,seconds) and pairs.csv (source,target,seconds) for Scripts/check-road-network.py.")
    @Argument(help: "The .osm.pbf or .osm file.") var file: String
    @Option(help: "Output directory.") var out: String
    @Option(help: "Number of source nodes.") var sources = 30
    @Option(help: "Targets per source.") var targets = 100
    @Option(help: "Seed for drawing the pairs.") var seed: UInt64 = 1

    func run() throws {
        let (graph, _, _) = try RoadnetCommand.load(file)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var edges = "tail,head,seconds\n"
        for v in 0..<graph.nodeCount {
            for e in graph.edges(from: v) { edges += "\(v),\(graph.head[e]),\(graph.freeFlowSeconds(e).description)\n" }
        }
        try edges.write(toFile: out + "/edges.csv", atomically: true, encoding: .utf8)
        let router = RoadRouter(graph: graph)
        var random = SplitMix64(seed: seed)
        var pairs = "source,target,seconds\n"
        for _ in 0..<sources {
            let s = Int(random.next() % UInt64(graph.nodeCount))
            for _ in 0..<targets {
                let t = Int(random.next() % UInt64(graph.nodeCount))
                pairs += "\(s),\(t),\(router.route(fromNode: s, toNode: t, departingAt: 0).seconds.description)\n"
            }
        }
        try pairs.write(toFile: out + "/pairs.csv", atomically: true, encoding: .utf8)
        print("wrote \(graph.edgeCount) edges and \(sources * targets) pairs to \(out)")
    }
}
