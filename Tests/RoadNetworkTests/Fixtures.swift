import DispatchCore
import Foundation
@testable import RoadNetwork

/// Paths to the bundled OSM files and shared builders for the road network tests.
enum Fixtures {
    static let osmDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios/osm")
    static var syntheticPath: String { osmDirectory.appendingPathComponent("synthetic-grid.osm").path }
    static var helsinkiPath: String { osmDirectory.appendingPathComponent("Helsinki.osm.pbf").path }

    static func synthetic() throws -> (graph: RoadGraph, report: NetworkReport) {
        try RoadGraphBuilder.load(path: syntheticPath)
    }

    /// Helsinki is read, built and contracted once per test process.
    static let helsinki: Result<(graph: RoadGraph, report: NetworkReport), RoadNetworkError> = Result {
        try RoadGraphBuilder.load(path: helsinkiPath)
    }.mapError { $0 as! RoadNetworkError }

    static let helsinkiRouter: Result<RoadRouter, RoadNetworkError> = helsinki.map { RoadRouter(graph: $0.graph) }
}

extension RoadGraph {
    /// The graph index of an OSM node (tests only: linear scan).
    func node(osm id: Int64) -> Int? { osmNodeIDs.firstIndex(of: id) }

    /// The edge from one OSM node to another, if the graph has it.
    func edge(osm from: Int64, _ to: Int64) -> Int? {
        guard let u = node(osm: from), let v = node(osm: to) else { return nil }
        return edges(from: u).first { Int(head[$0]) == v }
    }

    /// Seconds to drive a list of OSM nodes at the given km/h per leg (by hand, from positions).
    func seconds(along ids: [Int64], kmh: [Double]) -> Double {
        zip(zip(ids, ids.dropFirst()), kmh).reduce(0) { total, leg in
            let a = positions[node(osm: leg.0.0)!], b = positions[node(osm: leg.0.1)!]
            return total + a.euclideanDistance(to: b) / (leg.1 / 3.6)
        }
    }
}

/// Plain Dijkstra on the graph: the independent reference for the hierarchy.
func referenceSeconds(_ graph: RoadGraph, from source: Int, weight: (Int) -> Double) -> [Double] {
    var distance = [Double](repeating: .infinity, count: graph.nodeCount)
    var heap = MinHeap()
    distance[source] = 0
    heap.push(0, Int32(source))
    while !heap.isEmpty {
        let (d, u) = heap.pop()
        if d > distance[Int(u)] { continue }
        for e in graph.edges(from: Int(u)) {
            let v = Int(graph.head[e])
            let nd = d + weight(e)
            if nd < distance[v] { distance[v] = nd; heap.push(nd, Int32(v)) }
        }
    }
    return distance
}
