import DispatchCore

/// A drivable road network in compact arrays (CSR): node positions, and for each node its
/// outgoing road segments with length, free-flow speed and road class.
///
/// Nodes are OpenStreetMap nodes of drivable ways; an edge is one straight segment between two
/// consecutive nodes of a way, in each direction a car may drive it. Lengths are measured in the
/// local projection (`projection`), so a path is never shorter than the straight line between
/// its ends — the travel-time lower bounds rely on it.
///
/// Invariant: `firstOut.count == nodeCount + 1`, offsets non-decreasing from 0 to `edgeCount`;
/// every `head` is a node index; every length ≥ 0 and every speed > 0; after
/// `RoadGraphBuilder`, the graph is strongly connected.
public struct RoadGraph: Sendable {
    public let projection: LocalProjection
    /// Projected node positions, metres.
    public let positions: [Position]
    /// The OpenStreetMap id of each node.
    public let osmNodeIDs: [Int64]
    public let firstOut: [Int32]
    public let head: [Int32]
    /// Segment length in metres.
    public let length: [Double]
    /// Free-flow speed in m/s (from `maxspeed` or the class default).
    public let speed: [Double]
    public let roadClass: [RoadClass]

    public var nodeCount: Int { positions.count }
    public var edgeCount: Int { head.count }

    /// The edges leaving `node`.
    @inlinable
    public func edges(from node: Int) -> Range<Int> { Int(firstOut[node])..<Int(firstOut[node + 1]) }

    /// Free-flow travel time of an edge, seconds.
    @inlinable
    public func freeFlowSeconds(_ edge: Int) -> Double { length[edge] / speed[edge] }

    /// The highest free-flow speed on the network, m/s.
    public var topSpeed: Double { speed.max() ?? 0 }

    /// The same network with every node moved by `offset` and its projection with it (`LocalProjection.translated`):
    /// a city whose zones' plane is offset from the network's box (`city.fit: equal-area`, `cover`) lays its
    /// roads in that plane. Lengths, speeds and edges are unchanged, so every travel time is.
    public func translated(by offset: Position) -> RoadGraph {
        guard offset.x != 0 || offset.y != 0 else { return self }
        return RoadGraph(projection: projection.translated(by: offset),
                         positions: positions.map { Position(x: $0.x + offset.x, y: $0.y + offset.y) },
                         osmNodeIDs: osmNodeIDs, firstOut: firstOut, head: head, length: length, speed: speed, roadClass: roadClass)
    }

    /// The arrays as they are (`translated(by:)`).
    private init(projection: LocalProjection, positions: [Position], osmNodeIDs: [Int64], firstOut: [Int32], head: [Int32],
                 length: [Double], speed: [Double], roadClass: [RoadClass]) {
        self.projection = projection
        self.positions = positions
        self.osmNodeIDs = osmNodeIDs
        self.firstOut = firstOut
        self.head = head
        self.length = length
        self.speed = speed
        self.roadClass = roadClass
    }

    /// Builds the CSR arrays from a list of directed segments; nodes keep their given order.
    init(projection: LocalProjection, positions: [Position], osmNodeIDs: [Int64], segments: [Segment]) {
        let n = positions.count
        var count = [Int32](repeating: 0, count: n + 1)
        for s in segments { count[Int(s.from) + 1] += 1 }
        for i in 0..<n { count[i + 1] += count[i] }
        let sorted = segments.sorted { ($0.from, $0.order) < ($1.from, $1.order) }
        self.projection = projection
        self.positions = positions
        self.osmNodeIDs = osmNodeIDs
        firstOut = count
        head = sorted.map(\.to)
        length = sorted.map(\.length)
        speed = sorted.map(\.speed)
        roadClass = sorted.map(\.roadClass)
    }

    /// One directed segment before it is packed; `order` keeps the file order among a node's edges.
    struct Segment {
        var from: Int32
        var to: Int32
        var length: Double
        var speed: Double
        var roadClass: RoadClass
        var order: Int
    }
}
