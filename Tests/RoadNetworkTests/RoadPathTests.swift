import DispatchCore
import TestSupport
import Testing
@testable import RoadNetwork

/// Routes as node paths (contraction-hierarchy shortcuts unpacked) and where a car is along them.
@Suite struct RoadPathTests {
    @Test("the path on the hand-made grid is the one worked out by hand: A, D, E, F, I")
    func pathByHand() throws {
        let (graph, _) = try Fixtures.synthetic()
        let router = RoadRouter(graph: graph)
        let p = { (id: Int64) in graph.positions[graph.node(osm: id)!] }
        // A→I: up the left side, along the fast middle one-way, up the right side (the top is one-way westbound).
        let path = router.path(from: p(1), to: p(9), departingAt: 0)
        // From a node the snapped point is the node itself, and the path may end at I or at F then along F→I.
        let corners = path.points.enumerated().filter { $0.offset == 0 || $0.element != path.points[$0.offset - 1] }.map(\.element)
        #expect(corners == [1, 4, 5, 6, 9].map(p))
        #expect(abs(path.duration - graph.seconds(along: [1, 4, 5, 6, 9], kmh: [50, 72, 72, 25])) < 1e-9)
        // Halfway along D→E (5 s of its 10 s at 20 m/s) the car is halfway between D and E.
        let atD = graph.seconds(along: [1, 4], kmh: [50])
        let half = path.position(after: atD + graph.seconds(along: [4, 5], kmh: [72]) / 2)
        #expect(abs(half.x - (p(4).x + p(5).x) / 2) < 1e-9 && abs(half.y - (p(4).y + p(5).y) / 2) < 1e-9)
        #expect(path.position(after: -1) == p(1) && path.position(after: 1e9) == p(9))
    }

    @Test("paths on Helsinki are drivable segments whose time is the route's, for 500 random pairs and hours")
    func helsinkiPathsAreRoutes() throws {
        let (graph, _) = try Fixtures.helsinki.get()
        let congestion = try CongestionProfile(hourlyFactors: ["default": (0..<24).map { $0 >= 7 && $0 < 9 ? 1.5 : 1 },
                                                               "primary": (0..<24).map { $0 >= 16 && $0 < 18 ? 2 : 1.2 }])
        let router = RoadRouter(graph: graph, congestion: congestion)
        var random = SplitMix64(seed: 5)
        let width = graph.positions.map(\.x).max()!, height = graph.positions.map(\.y).max()!
        var index: [Position: Int] = [:]
        for (i, p) in graph.positions.enumerated() { index[p] = i }
        for _ in 0..<500 {
            let a = Position(x: random.nextUnit() * width, y: random.nextUnit() * height)
            let b = Position(x: random.nextUnit() * width, y: random.nextUnit() * height)
            let time = random.nextUnit() * 86_400
            let path = router.path(from: a, to: b, departingAt: time)
            let route = router.route(from: a, to: b, departingAt: time)
            #expect(abs(path.duration - route.seconds) <= 1e-9 * max(1, route.seconds))
            #expect(path.points.first == a && path.points.last == b)
            #expect(path.points[1] == router.snap(a).point && path.points[path.points.count - 2] == router.snap(b).point)
            #expect(zip(path.seconds, path.seconds.dropFirst()).allSatisfy { $0 <= $1 })
            // Between the snapped points, consecutive nodes are joined by a segment drivable in that direction.
            let nodes = path.points.dropFirst(2).dropLast(2).map { index[$0]! }
            for (u, v) in zip(nodes, nodes.dropFirst()) {
                #expect(graph.edges(from: u).contains { Int(graph.head[$0]) == v }, "no segment \(u)→\(v)")
            }
        }
    }
}
