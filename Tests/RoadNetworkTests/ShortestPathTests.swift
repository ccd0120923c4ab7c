import DispatchCore
import Testing
import TestSupport
@testable import RoadNetwork

/// The contraction hierarchy against plain Dijkstra (the independent router in Swift; networkx
/// checks the same graph from Scripts/check-road-network.py).
@Suite struct ShortestPathTests {
    @Test("hierarchy times equal Dijkstra's on Helsinki for 2,000 random pairs")
    func helsinkiMatchesDijkstra() throws {
        let router = try Fixtures.helsinkiRouter.get()
        let graph = router.graph
        var random = SplitMix64(seed: 13)
        var worst = 0.0
        for _ in 0..<20 {
            let source = Int(random.next() % UInt64(graph.nodeCount))
            let reference = referenceSeconds(graph, from: source, weight: graph.freeFlowSeconds)
            for _ in 0..<100 {
                let target = Int(random.next() % UInt64(graph.nodeCount))
                let seconds = router.route(fromNode: source, toNode: target, departingAt: 0).seconds
                worst = max(worst, abs(seconds - reference[target]))
            }
        }
        #expect(worst < 1e-6)
    }

    @Test("congestion factors change travel times by class and hour")
    func congestionByHour() throws {
        let (graph, _) = try Fixtures.synthetic()
        var peak = Array(repeating: 1.0, count: 24)
        peak[8] = 3
        let profile = try CongestionProfile(hourlyFactors: ["primary": peak])
        let router = RoadRouter(graph: graph, congestion: profile)
        let a = graph.node(osm: 1)!, f = graph.node(osm: 6)!
        let night = router.route(fromNode: a, toNode: f, departingAt: 3 * 3600).seconds
        let rush = router.route(fromNode: a, toNode: f, departingAt: 8 * 3600 + 10).seconds
        #expect(abs(night - graph.seconds(along: [1, 4, 5, 6], kmh: [50, 72, 72])) < 1e-9)
        // At 8:00 the primary one-way takes 3× as long: still the best? Dijkstra decides.
        let reference = referenceSeconds(graph, from: a) { e in
            graph.freeFlowSeconds(e) * (graph.roadClass[e] == .primary ? 3 : 1)
        }
        #expect(abs(rush - reference[f]) < 1e-9)
        #expect(rush > night)
    }

    @Test("congestion profiles reject bad factors naming class and hour")
    func badCongestion() {
        var factors = Array(repeating: 1.0, count: 24)
        factors[5] = 0
        #expect(throws: RoadNetworkError.invalidConfiguration(field: "congestion.primary[5]", reason: "factor must be finite and > 0 (got 0.0)")) {
            try CongestionProfile(hourlyFactors: ["primary": factors])
        }
        #expect(throws: RoadNetworkError.self) { try CongestionProfile(hourlyFactors: ["highway": factors]) }
        #expect(throws: RoadNetworkError.self) { try CongestionProfile(hourlyFactors: ["default": [1]]) }
    }

    @Test("the straight line at top speed never exceeds the road travel time")
    func lowerBoundHolds() throws {
        let router = try Fixtures.helsinkiRouter.get()
        let estimator = RoadTravelEstimator(router: router)
        var random = SplitMix64(seed: 7)
        let width = router.graph.positions.map(\.x).max()!, height = router.graph.positions.map(\.y).max()!
        for _ in 0..<500 {
            let a = Position(x: random.nextUnit() * width, y: random.nextUnit() * height)
            let b = Position(x: random.nextUnit() * width, y: random.nextUnit() * height)
            let bound = estimator.lowerBoundTravelTime(straightLineDistance: a.euclideanDistance(to: b), departingAt: 0)
            #expect(bound <= estimator.travelTime(from: a, to: b, departingAt: 0) + 1e-9)
        }
    }

    @Test("snapping finds the segment a brute-force scan finds")
    func snapMatchesBruteForce() throws {
        let router = try Fixtures.helsinkiRouter.get()
        let graph = router.graph
        var random = SplitMix64(seed: 3)
        let width = graph.positions.map(\.x).max()!, height = graph.positions.map(\.y).max()!
        for _ in 0..<200 {
            let p = Position(x: random.nextUnit() * width * 1.1 - width * 0.05, y: random.nextUnit() * height * 1.1 - height * 0.05)
            let brute = (0..<graph.edgeCount).map { router.snapIndex.project(p, onto: $0, graph: graph).distance }.min()!
            #expect(abs(router.snap(p).distance - brute) < 1e-9)
        }
    }

    @Test("a chain of 300,000 nodes has its components found without recursion")
    func deepComponents() {
        let n = 300_000
        // A one-way chain 0→1→…→n-1 and one edge back: a single cycle, one component.
        var firstOut: [Int32] = [0]
        var head: [Int32] = []
        for v in 0..<n { head.append(Int32((v + 1) % n)); firstOut.append(Int32(head.count)) }
        #expect(StrongComponents(firstOut: firstOut, head: head).count == 1)
        head[n - 1] = Int32(n - 2)  // break the cycle: every node alone except the last pair
        #expect(StrongComponents(firstOut: firstOut, head: head).count == n - 1)
    }
}

/// The closest-taxi search asks many origins for their time to one pickup point; the router then
/// keeps the destination's backward search. Its answers must not change.
@Suite struct RepeatedDestinationTests {
    @Test("many origins to one destination give the times of independent queries")
    func manyToOneMatchesSingleQueries() throws {
        let (graph, _) = try Fixtures.helsinki.get()
        let repeated = RoadRouter(graph: graph), single = RoadRouter(graph: graph)
        var random = SplitMix64(seed: 21)
        let width = graph.positions.map(\.x).max()!, height = graph.positions.map(\.y).max()!
        func point() -> Position { Position(x: random.nextUnit() * width, y: random.nextUnit() * height) }
        for _ in 0..<10 {
            let destination = point()
            for _ in 0..<30 {
                let origin = point()
                let many = repeated.route(from: origin, to: destination, departingAt: 0)
                // A query elsewhere in between: the second router never keeps a destination.
                _ = single.route(from: destination, to: origin, departingAt: 0)
                let one = single.route(from: origin, to: destination, departingAt: 0)
                #expect(abs(many.seconds - one.seconds) < 1e-9 && abs(many.metres - one.metres) < 1e-6)
            }
        }
    }
}

/// The closest-taxi search asks every further candidate's ETA with the slowest ETA it still keeps as a
/// bound, and the router stops a search once it cannot come in under it (`route(...atMost:)`).
@Suite struct BoundedQueryTests {
    @Test("a bounded query is exact at or under its bound and above the bound otherwise")
    func boundedQueriesAreExactUnderTheBound() throws {
        let (graph, _) = try Fixtures.helsinki.get()
        let bounded = RoadRouter(graph: graph), exact = RoadRouter(graph: graph)
        var random = SplitMix64(seed: 34)
        let width = graph.positions.map(\.x).max()!, height = graph.positions.map(\.y).max()!
        func point() -> Position { Position(x: random.nextUnit() * width, y: random.nextUnit() * height) }
        var under = 0, over = 0, stoppedEarly = 0
        for _ in 0..<20 {
            let destination = point()
            for _ in 0..<40 {
                let origin = point()
                let truth = exact.route(from: origin, to: destination, departingAt: 8 * 3600).seconds
                _ = exact.route(from: destination, to: origin, departingAt: 8 * 3600)  // never keeps a destination
                let bound = truth * (0.5 + random.nextUnit())  // half to one and a half times the answer
                let answer = bounded.route(from: origin, to: destination, departingAt: 8 * 3600, atMost: bound).seconds
                if truth <= bound {
                    under += 1
                    #expect(abs(answer - truth) < 1e-9, "under the bound: \(answer) vs \(truth)")
                } else {
                    over += 1
                    #expect(answer > bound, "over the bound \(bound): \(answer) (true \(truth))")
                    if answer != truth { stoppedEarly += 1 }
                }
            }
        }
        #expect(under > 100 && over > 100 && stoppedEarly > 50, "under \(under), over \(over), stopped early \(stoppedEarly)")
    }

    @Test("the closest taxi by network ETA is the one an exhaustive search picks")
    func closestTaxiMatchesExhaustiveSearch() throws {
        let (graph, _) = try Fixtures.helsinki.get()
        let router = RoadRouter(graph: graph), reference = RoadRouter(graph: graph)
        let width = graph.positions.map(\.x).max()! + 1, height = graph.positions.map(\.y).max()! + 1
        let city = try CityGeometry(layout: ZoneLayout(shape: .cutSquares, side: 1_000, width: width, height: height))
        let core = try DispatchCore(city: city, travel: RoadTravelEstimator(router: router), policy: NearestIdlePolicy())
        var random = SplitMix64(seed: 55)
        func point() -> Position { Position(x: random.nextUnit() * (width - 1), y: random.nextUnit() * (height - 1)) }
        var effects: [Effect] = []
        var places: [Position] = []
        for slot in 0..<300 {
            places.append(point())
            try core.handle(.addDriver(DriverID(slot), taxiCode: "TX-\(slot)"), at: 0, into: &effects)
            try core.handle(.startShift(DriverID(slot), at: places[slot]), at: 0, into: &effects)
            try core.handle(.setAvailable(DriverID(slot), true), at: 0, into: &effects)
        }
        let eight = 8.0 * 3600
        for request in 0..<60 {
            let origin = point()
            effects.removeAll()
            try core.handle(.requestRide(RequestID(request), customer: CustomerID(1), origin: origin, destination: point(), patience: 0),
                            at: eight, into: &effects)
            guard case .offer(let driver, _, _) = effects.first else { Issue.record("no offer: \(effects)"); return }
            let etas = places.map { reference.route(from: $0, to: origin, departingAt: eight).seconds }
            let fastest = etas.min()!
            #expect(abs(etas[driver.rawValue] - fastest) < 1e-9, "offered \(driver) at \(etas[driver.rawValue]) s, fastest \(fastest) s")
            effects.removeAll()
            try core.handle(.cancel(RequestID(request), by: CustomerID(1)), at: eight, into: &effects)
        }
    }
}
