import DispatchCore
import Synchronization

/// Exact shortest travel times on a `RoadGraph` by hour of day, with contraction hierarchies.
///
/// Why plain CH and not CCH: congestion here is a factor per road class and hour, so a day has a
/// handful of distinct metrics (hours with equal factors share one); contracting each metric once at
/// load (about a second in release for a city) is cheaper to build and faster to query than CCH's
/// metric-independent order with nested dissection, whose advantage — re-customising in
/// milliseconds when weights change often — the simulator does not need.
///
/// Points are snapped to the nearest road segment (`SnapIndex`); a trip is: the straight access leg
/// to the snapped point, the rest of that segment, the shortest path, part of the last segment, and
/// the leg to the destination. Access legs are charged at the snapped segment's speed, never faster
/// than the network's top speed, so `lowerBound` (straight line at top speed) stays a lower bound.
///
/// Invariant: immutable after `init` except the query scratch, which a `Mutex` guards, so one
/// router can be shared between threads (queries then run one at a time).
public final class RoadRouter: Sendable {
    public let graph: RoadGraph
    public let congestion: CongestionProfile
    let hierarchies: [ContractionHierarchy]
    /// `edgeWeights[metric][edge]`: seconds to drive the edge under that metric.
    let edgeWeights: [[Double]]
    let metricOfHour: [Int]
    /// Highest speed (m/s) on any edge at each hour, after congestion.
    let topSpeedByHour: [Double]
    /// The reverse edge of each edge (same two nodes, opposite direction), or -1 on one-way segments.
    let twin: [Int32]
    let snapIndex: SnapIndex
    let scratch: Mutex<RouterScratch>

    /// Query memory plus the destination of recent point queries: a second query in a row to the
    /// same destination (the closest-taxi search asks every candidate's ETA to one pickup point)
    /// keeps the destination's backward search and runs only forward searches after it. Recent snaps
    /// are kept too (`SnapCache`): a simulation asks again and again from the same taxi positions.
    struct RouterScratch {
        var query: HierarchyQuery
        var lastDestination: DestinationKey?
        var preparedDestination: DestinationKey?
        var snaps = SnapCache()
        /// The current query's sources and targets (kept to reuse their memory).
        var sources: [(node: Int32, cost: Double, length: Double)] = []
        var targets: [(node: Int32, cost: Double, length: Double)] = []
    }

    struct DestinationKey: Equatable {
        var position: Position
        var metric: Int
    }

    /// Contracts one hierarchy per distinct hourly metric of `congestion`.
    public init(graph: RoadGraph, congestion: CongestionProfile = .freeFlow) {
        self.graph = graph
        self.congestion = congestion
        let hours = congestion.metricOfHour
        metricOfHour = hours
        let metricCount = (hours.max() ?? 0) + 1
        var firstHour = [Int](repeating: 0, count: metricCount)
        for h in (0..<24).reversed() { firstHour[hours[h]] = h }
        let weights = firstHour.map { hour in
            (0..<graph.edgeCount).map { e in graph.freeFlowSeconds(e) * congestion.factor(graph.roadClass[e], hour: hour) }
        }
        edgeWeights = weights
        topSpeedByHour = (0..<24).map { hour in
            (0..<graph.edgeCount).reduce(0.0) { max($0, graph.speed[$1] / congestion.factor(graph.roadClass[$1], hour: hour)) }
        }
        var tails = [Int32](repeating: 0, count: graph.edgeCount)
        for v in 0..<graph.nodeCount { for e in graph.edges(from: v) { tails[e] = Int32(v) } }
        hierarchies = weights.map {
            ContractionHierarchy(nodeCount: graph.nodeCount, tails: tails, heads: graph.head, weights: $0, lengths: graph.length)
        }
        var twin = [Int32](repeating: -1, count: graph.edgeCount)
        for e in 0..<graph.edgeCount {
            let v = Int(graph.head[e])
            twin[e] = graph.edges(from: v).first { Int(graph.head[$0]) == Int(tails[e]) && graph.length[$0] == graph.length[e] }.map(Int32.init) ?? -1
        }
        self.twin = twin
        snapIndex = SnapIndex(graph: graph)
        scratch = Mutex(RouterScratch(query: HierarchyQuery(nodeCount: graph.nodeCount)))
    }

    /// Arcs of all hierarchies (both directions, shortcuts included).
    public var hierarchyArcCount: Int { hierarchies.reduce(0) { $0 + $1.arcCount } }

    /// The hierarchy metric used at `time` (seconds since midnight of day 0).
    func metric(at time: Double) -> Int { metricOfHour[hourOfDay(time)] }

    /// The hour whose factors are lowest on average (the closest to free flow), used for road distances.
    public var freeFlowHour: Int {
        (0..<24).min { a, b in
            let fa = RoadClass.allCases.reduce(0) { $0 + congestion.factor($1, hour: a) }
            let fb = RoadClass.allCases.reduce(0) { $0 + congestion.factor($1, hour: b) }
            return fa < fb
        } ?? 0
    }

    /// The nearest point on the road network.
    public func snap(_ position: Position) -> RoadSnap { scratch.withLock { snap(position, &$0.snaps) } }

    func snap(_ position: Position, _ cache: inout SnapCache) -> RoadSnap {
        cache.snap(position) { snapIndex.nearest(to: $0, in: graph) }
    }

    /// Highest congested speed on the network at `time`, m/s.
    public func topSpeed(at time: Double) -> Double { topSpeedByHour[hourOfDay(time)] }

    /// Shortest travel time (s) and its length (m) between two graph nodes, leaving at `time`.
    public func route(fromNode source: Int, toNode target: Int, departingAt time: Double) -> (seconds: Double, metres: Double) {
        let m = metric(at: time)
        let result = scratch.withLock { state in
            state.preparedDestination = nil
            return state.query.distance(in: hierarchies[m], sources: [(Int32(source), 0, 0)], targets: [(Int32(target), 0, 0)])
        }
        // The graph is strongly connected, so every node reaches every other.
        return result.map { ($0.cost, $0.length) } ?? (.infinity, .infinity)
    }

    /// Shortest travel time (s) and driven length (m) between two points, leaving at `time`.
    /// With `atMost`: the route when it takes at most `bound` seconds; otherwise some result above `bound`
    /// (the search stops once everything left is slower: the closest-taxi search's candidates that cannot win).
    public func route(from origin: Position, to destination: Position, departingAt time: Double,
                      atMost bound: Double = .infinity) -> (seconds: Double, metres: Double) {
        let m = metric(at: time)
        return scratch.withLock { state in
            let a = snap(origin, &state.snaps), b = snap(destination, &state.snaps)
            return routeBetween(a, b, destination: destination, metric: m, atMost: bound, &state)
        }
    }

    func routeBetween(_ a: RoadSnap, _ b: RoadSnap, destination: Position, metric m: Int, atMost bound: Double = .infinity,
                      _ state: inout RouterScratch) -> (seconds: Double, metres: Double) {
        let weights = edgeWeights[m]
        let access = accessLeg(a, weights), egress = accessLeg(b, weights)
        var best = (seconds: Double.infinity, metres: Double.infinity)
        // Both points on the same segment: drive straight along it when the direction allows.
        for (edge, from, to) in sameSegment(a, b) where to >= from {
            let seconds = access.seconds + (to - from) * weights[edge] + egress.seconds
            if seconds < best.seconds { best = (seconds, access.metres + (to - from) * graph.length[edge] + egress.metres) }
        }
        fillSeeds(a, b, access: access, egress: egress, weights, &state.sources, &state.targets)
        let key = DestinationKey(position: destination, metric: m)
        let hierarchy = hierarchies[m]
        let found: (cost: Double, length: Double)?
        if state.preparedDestination == key, state.query.hasPreparedTargets {
            found = state.query.distanceToPrepared(in: hierarchy, sources: state.sources, atMost: bound)
        } else if state.lastDestination == key {
            state.query.prepareTargets(in: hierarchy, state.targets)
            state.preparedDestination = key
            found = state.query.distanceToPrepared(in: hierarchy, sources: state.sources, atMost: bound)
        } else {
            state.preparedDestination = nil
            found = state.query.distance(in: hierarchy, sources: state.sources, targets: state.targets)
        }
        state.lastDestination = key
        if let found, found.cost < best.seconds { best = (found.cost, found.length) }
        return best
    }

    /// Where the hierarchy search of a trip between two snapped points starts and ends: the ends of the
    /// snapped segments it can drive to (sources) and from (targets), each with the time and length of
    /// the access leg plus the part of the segment up to that node.
    func seeds(_ a: RoadSnap, _ b: RoadSnap, access: (seconds: Double, metres: Double), egress: (seconds: Double, metres: Double),
               _ weights: [Double]) -> (sources: [(node: Int32, cost: Double, length: Double)], targets: [(node: Int32, cost: Double, length: Double)]) {
        var sources: [(node: Int32, cost: Double, length: Double)] = [], targets: [(node: Int32, cost: Double, length: Double)] = []
        fillSeeds(a, b, access: access, egress: egress, weights, &sources, &targets)
        return (sources, targets)
    }

    /// `seeds` into reused buffers (the point query's hot path: no allocation).
    func fillSeeds(_ a: RoadSnap, _ b: RoadSnap, access: (seconds: Double, metres: Double), egress: (seconds: Double, metres: Double),
                   _ weights: [Double], _ sources: inout [(node: Int32, cost: Double, length: Double)],
                   _ targets: inout [(node: Int32, cost: Double, length: Double)]) {
        sources.removeAll(keepingCapacity: true)
        for (edge, t) in directions(a) {
            sources.append((graph.head[edge], access.seconds + (1 - t) * weights[edge], access.metres + (1 - t) * graph.length[edge]))
        }
        // A snap exactly on a node may leave that node in any direction, one-way or not.
        if a.fraction == 0 { sources.append((snapIndex.tails[a.edge], access.seconds, access.metres)) }
        targets.removeAll(keepingCapacity: true)
        if b.fraction == 1 { targets.append((graph.head[b.edge], egress.seconds, egress.metres)) }
        for (edge, t) in directions(b) {
            targets.append((snapIndex.tails[edge], egress.seconds + t * weights[edge], egress.metres + t * graph.length[edge]))
        }
    }

    /// The straight leg between a point and its snapped position, at the segment's congested speed.
    func accessLeg(_ snap: RoadSnap, _ weights: [Double]) -> (seconds: Double, metres: Double) {
        guard snap.distance > 0 else { return (0, 0) }
        let length = graph.length[snap.edge]
        let speed = length > 0 ? length / weights[snap.edge] : (topSpeedByHour.min() ?? 1)
        return (snap.distance / speed, snap.distance)
    }

    /// The snapped segment in each drivable direction, with the fraction along that direction.
    func directions(_ snap: RoadSnap) -> Directions {
        let reverse = Int(twin[snap.edge])
        return Directions(first: (snap.edge, snap.fraction), second: reverse >= 0 ? (reverse, 1 - snap.fraction) : nil)
    }

    /// When both snaps lie on the same segment: each direction with the two fractions along it.
    func sameSegment(_ a: RoadSnap, _ b: RoadSnap) -> [(edge: Int, from: Double, to: Double)] {
        guard a.edge == b.edge || Int(twin[a.edge]) == b.edge else { return [] }
        let bDirections = directions(b)
        var result: [(edge: Int, from: Double, to: Double)] = []
        for da in directions(a) {
            if let db = bDirections.first(where: { $0.edge == da.edge }) { result.append((edge: da.edge, from: da.fraction, to: db.fraction)) }
        }
        return result
    }
}
