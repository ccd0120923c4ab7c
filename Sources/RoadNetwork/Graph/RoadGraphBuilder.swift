import DispatchCore

/// Builds the drivable `RoadGraph` of an OpenStreetMap extract: keeps car-accessible ways
/// (`WayRules`), turns each way into directed segments honouring one-way rules and speeds,
/// projects nodes locally (`LocalProjection` around the network's bounding box), and keeps the
/// largest strongly connected component so every node can reach every other.
///
/// Invariant: deterministic — nodes are numbered in order of first appearance in the file's
/// drivable ways, edges keep the file order; the same extract always gives the same graph.
public enum RoadGraphBuilder {
    /// Keep only ways that could be roads (saves memory while reading a file).
    public static func isHighway(_ tags: [String: String]) -> Bool { tags["highway"] != nil }

    /// Reads an `.osm.pbf` or `.osm` (XML) file and builds its drivable graph.
    /// - Throws: `RoadNetworkError` for unreadable files and for extracts with no drivable road.
    public static func load(path: String) throws -> (graph: RoadGraph, report: NetworkReport) {
        let extract: OSMExtract
        if path.hasSuffix(".osm") || path.hasSuffix(".xml") {
            extract = try OSMXMLReader.read(path: path, keepWay: isHighway)
        } else {
            extract = try PBFReader.read(path: path, keepWay: isHighway)
        }
        return try build(extract, file: path)
    }

    /// Builds the graph of an extract. `file` names the source in errors.
    /// - Complexity: O(nodes + segments · log segments).
    public static func build(_ extract: OSMExtract, file: String) throws -> (graph: RoadGraph, report: NetworkReport) {
        var report = NetworkReport()
        report.waysRead = extract.ways.count + extract.skippedWays
        report.turnRestrictionsIgnored = extract.turnRestrictions.count
        var index: [Int64: Int32] = [:]
        var osmIDs: [Int64] = []
        var coordinates: [LatLon] = []
        var pending: [(from: Int32, to: Int32, rules: WayRules, forward: Bool)] = []
        for way in extract.ways {
            let rules: WayRules
            switch WayRules.evaluate(way.tags) {
            case .failure(let why): report.droppedWays[why, default: 0] += 1; continue
            case .success(let r): rules = r
            }
            guard way.nodeIDs.count >= 2 else { report.droppedWays[.tooShort, default: 0] += 1; continue }
            report.drivableWays += 1
            var previous: Int32?
            var previousOSM: Int64?
            for id in way.nodeIDs {
                guard let point = extract.nodes[id] else {
                    report.missingNodeReferences += 1
                    previous = nil; previousOSM = nil
                    continue
                }
                if id == previousOSM { report.repeatedNodes += 1; continue }
                let node: Int32
                if let known = index[id] { node = known } else {
                    node = Int32(osmIDs.count)
                    index[id] = node
                    osmIDs.append(id)
                    coordinates.append(point)
                }
                if let from = previous {
                    if rules.direction != .backward { pending.append((from, node, rules, true)) }
                    if rules.direction != .forward { pending.append((node, from, rules, false)) }
                }
                previous = node; previousOSM = id
            }
        }
        guard !pending.isEmpty else {
            throw RoadNetworkError.emptyNetwork(file: file, reason: "no car-accessible way with two known nodes among \(report.waysRead) ways")
        }
        let projection = boundingProjection(coordinates)
        let positions = coordinates.map(projection.project)
        var segments: [RoadGraph.Segment] = []
        segments.reserveCapacity(pending.count)
        for (order, p) in pending.enumerated() {
            let kmh = p.forward ? p.rules.forwardKmh : p.rules.backwardKmh
            segments.append(.init(from: p.from, to: p.to,
                                  length: positions[Int(p.from)].euclideanDistance(to: positions[Int(p.to)]),
                                  speed: kmh / 3.6, roadClass: p.rules.roadClass, order: order))
        }
        let whole = RoadGraph(projection: projection, positions: positions, osmNodeIDs: osmIDs, segments: segments)
        report.nodesBeforeComponents = whole.nodeCount
        report.edgesBeforeComponents = whole.edgeCount
        let graph = largestComponent(of: whole, segments: segments, report: &report)
        for c in graph.roadClass { report.edgesByClass[c, default: 0] += 1 }
        return (graph, report)
    }

    /// The projection centred on the bounding box of the points.
    static func boundingProjection(_ points: [LatLon]) -> LocalProjection {
        var south = Double.infinity, north = -Double.infinity, west = Double.infinity, east = -Double.infinity
        for p in points {
            south = min(south, p.latitude); north = max(north, p.latitude)
            west = min(west, p.longitude); east = max(east, p.longitude)
        }
        return LocalProjection(southWest: LatLon(latitude: south, longitude: west), northEast: LatLon(latitude: north, longitude: east))
    }

    /// The subgraph of the largest strongly connected component, nodes renumbered in their old order.
    static func largestComponent(of graph: RoadGraph, segments: [RoadGraph.Segment], report: inout NetworkReport) -> RoadGraph {
        let components = StrongComponents(firstOut: graph.firstOut, head: graph.head)
        report.components = components.count
        let keep = components.largest!
        var newIndex = [Int32](repeating: -1, count: graph.nodeCount)
        var positions: [Position] = []
        var osmIDs: [Int64] = []
        for v in 0..<graph.nodeCount where components.component[v] == keep {
            newIndex[v] = Int32(positions.count)
            positions.append(graph.positions[v])
            osmIDs.append(graph.osmNodeIDs[v])
        }
        let kept = segments.compactMap { s -> RoadGraph.Segment? in
            let from = newIndex[Int(s.from)], to = newIndex[Int(s.to)]
            guard from >= 0, to >= 0 else { return nil }
            var moved = s
            moved.from = from; moved.to = to
            return moved
        }
        report.nodes = positions.count
        report.edges = kept.count
        report.droppedNodes = graph.nodeCount - positions.count
        report.droppedEdges = graph.edgeCount - kept.count
        return RoadGraph(projection: graph.projection, positions: positions, osmNodeIDs: osmIDs, segments: kept)
    }
}
