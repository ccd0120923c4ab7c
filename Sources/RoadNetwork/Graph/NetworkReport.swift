/// What `RoadGraphBuilder` kept and dropped, for the user to check an extract.
///
/// Invariant: counts are non-negative; `nodes`/`edges` describe the final (strongly connected) graph.
public struct NetworkReport: Sendable, Equatable, CustomStringConvertible {
    public var waysRead = 0
    public var drivableWays = 0
    public var droppedWays: [WayRules.Exclusion: Int] = [:]
    /// Way node references whose node is not in the extract (clipped at the extract's border).
    public var missingNodeReferences = 0
    /// Consecutive repeated nodes within a way (zero-length segments), skipped.
    public var repeatedNodes = 0
    /// Nodes and directed edges before the component filter.
    public var nodesBeforeComponents = 0
    public var edgesBeforeComponents = 0
    public var components = 0
    /// Nodes and directed edges outside the largest strongly connected component.
    public var droppedNodes = 0
    public var droppedEdges = 0
    public var nodes = 0
    public var edges = 0
    /// Turn restrictions found; the node-based graph does not apply them.
    public var turnRestrictionsIgnored = 0
    public var edgesByClass: [RoadClass: Int] = [:]

    public var description: String {
        var lines = [
            "ways read: \(waysRead), drivable: \(drivableWays)",
            "dropped ways: " + (droppedWays.isEmpty ? "none" : droppedWays.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")),
            "missing node references: \(missingNodeReferences), repeated nodes: \(repeatedNodes)",
            "before components: \(nodesBeforeComponents) nodes, \(edgesBeforeComponents) edges in \(components) strongly connected components",
            "largest component: \(nodes) nodes, \(edges) edges (dropped \(droppedNodes) nodes, \(droppedEdges) edges)",
            "turn restrictions read but not applied: \(turnRestrictionsIgnored)",
        ]
        lines.append("edges by class: " + edgesByClass.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}
