// Travel-time queries on a real road network (issue 13): the Helsinki extract bundled under
// Scenarios/osm/, read, built and contracted once per process (congestion by hour as in
// Scenarios/helsinki.yaml is not needed: the query cost does not depend on the factors).
//
// - `Route query Helsinki (node to node)`: one contraction-hierarchy query between two random
//   graph nodes (bidirectional, stall-on-demand), 08:00. 1,000 queries per iteration; the figure is
//   per query (`scalingFactor: .kilo`).
// - `Route query Helsinki (road point to road point)`: the same between two random points on road
//   segments (what the simulator asks once pickup and drop-off points are snapped): both snapped
//   afresh (no cache hit: 2,000 new points per iteration), the query from the segment ends.
//   This is what `RoadTravelEstimator.travelTime` does for the dispatch core.
// - `Route query Helsinki (position to position)`: between two random points of the network's
//   bounding box, sea included, so snapping searches farther: the worst case.
// - `Closest taxi Helsinki 5k taxis (network ETAs)`: one `NearestIdlePolicy` decision of
//   DispatchCore with `RoadTravelEstimator`: 5,000 available taxis at random graph nodes; an
//   iteration is `.requestRide` from a random node → the offer to the taxi with the least network
//   ETA (the spatial index prunes with the straight line at the hour's top speed; the router keeps the
//   pickup's backward search across candidates). The offer is then cancelled (unmeasured), so the
//   fleet is the same for every iteration.

import Benchmark
import BenchFixtures
import DispatchCore
import Foundation
import RoadNetwork
import TestSupport

let helsinkiPath = packageRoot.appendingPathComponent("Scenarios/osm/Helsinki.osm.pbf").path
let perQuery = 1_000
let eightAM = 8.0 * 3600

/// The Helsinki network, its router and seeded random picks.
final class RoadFixture {
    let router: RoadRouter
    var random = SplitMix64(seed: 13)

    init() throws {
        let (graph, _) = try RoadGraphBuilder.load(path: helsinkiPath)
        router = RoadRouter(graph: graph)
    }

    func randomNode() -> Int { Int(random.next() % UInt64(router.graph.nodeCount)) }

    /// A point on the network: a random segment's point at a random fraction (what the simulator asks
    /// about once it has snapped its pickup and drop-off points).
    func randomRoadPoint() -> Position {
        let graph = router.graph
        let node = randomNode()
        let edges = graph.edges(from: node)
        guard !edges.isEmpty else { return graph.positions[node] }
        let e = edges.lowerBound + Int(random.next() % UInt64(edges.count))
        let a = graph.positions[node], b = graph.positions[Int(graph.head[e])], t = random.nextUnit()
        return Position(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
    }

    /// A point uniform in the network's bounding box (sea included: the worst case for snapping).
    func randomPoint() -> Position {
        let box = router.graph.positions.reduce((Double.infinity, Double.infinity, 0.0, 0.0)) {
            (min($0.0, $1.x), min($0.1, $1.y), max($0.2, $1.x), max($0.3, $1.y))
        }
        return Position(x: box.0 + random.nextUnit() * (box.2 - box.0), y: box.1 + random.nextUnit() * (box.3 - box.1))
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 20_000
    )
    var fixture: RoadFixture?
    func road() throws -> RoadFixture {
        if fixture == nil { fixture = try RoadFixture() }
        return fixture!
    }

    Benchmark("Route query Helsinki (node to node)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        do {
            let f = try road()
            let pairs = (0..<perQuery).map { _ in (f.randomNode(), f.randomNode()) }
            var total = 0.0
            benchmark.startMeasurement()
            for (a, b) in pairs { total += f.router.route(fromNode: a, toNode: b, departingAt: eightAM).seconds }
            benchmark.stopMeasurement()
            blackHole(total)
        } catch { benchmark.error("\(error)") }
    }

    /// 1,000 point-to-point queries per iteration between points drawn by `pick`.
    func pointQueries(_ name: String, _ pick: @escaping (RoadFixture) -> Position) {
        Benchmark("Route query Helsinki (\(name))", configuration: .init(scalingFactor: .kilo)) { benchmark in
            do {
                let f = try road()
                let pairs = (0..<perQuery).map { _ in (pick(f), pick(f)) }
                var total = 0.0
                benchmark.startMeasurement()
                for (a, b) in pairs { total += f.router.route(from: a, to: b, departingAt: eightAM).seconds }
                benchmark.stopMeasurement()
                blackHole(total)
            } catch { benchmark.error("\(error)") }
        }
    }
    pointQueries("road point to road point") { $0.randomRoadPoint() }
    pointQueries("position to position") { $0.randomPoint() }

    var dispatch: (core: DispatchCore, road: RoadFixture, effects: [Effect], next: Int)?
    Benchmark("Closest taxi Helsinki 5k taxis (network ETAs)") { benchmark in
        do {
            if dispatch == nil {
                let f = try road()
                let positions = f.router.graph.positions
                let box = positions.reduce((0.0, 0.0)) { (max($0.0, $1.x), max($0.1, $1.y)) }
                let city = try CityGeometry(layout: ZoneLayout(shape: .cutSquares, side: 1_000, width: box.0 + 1, height: box.1 + 1))
                let core = try DispatchCore(city: city, travel: RoadTravelEstimator(router: f.router), policy: NearestIdlePolicy())
                var effects: [Effect] = []
                for slot in 0..<5_000 {
                    try core.handle(.addDriver(DriverID(slot), taxiCode: "TX-\(slot)"), at: 0, into: &effects)
                    try core.handle(.startShift(DriverID(slot), at: positions[f.randomNode()]), at: 0, into: &effects)
                    try core.handle(.setAvailable(DriverID(slot), true), at: 0, into: &effects)
                }
                effects.removeAll()
                dispatch = (core, f, effects, 1)
            }
            let f = dispatch!.road, core = dispatch!.core
            let origin = f.router.graph.positions[f.randomNode()], destination = f.router.graph.positions[f.randomNode()]
            let id = RequestID(dispatch!.next)
            dispatch!.next += 1
            benchmark.startMeasurement()
            try core.handle(.requestRide(id, customer: CustomerID(1), origin: origin, destination: destination, patience: 0),
                            at: eightAM, into: &dispatch!.effects)
            benchmark.stopMeasurement()
            guard case .offer = dispatch!.effects.first else {
                benchmark.error("expected an offer, got \(dispatch!.effects)")
                return
            }
            dispatch!.effects.removeAll(keepingCapacity: true)
            try core.handle(.cancel(id, by: CustomerID(1)), at: eightAM, into: &dispatch!.effects)
            dispatch!.effects.removeAll(keepingCapacity: true)
        } catch { benchmark.error("\(error)") }
    }
}
