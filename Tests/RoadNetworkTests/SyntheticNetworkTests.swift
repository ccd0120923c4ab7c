import DispatchCore
import Testing
@testable import RoadNetwork

/// The hand-made grid in Scenarios/osm/synthetic-grid.osm (see the comment at its top): its graph,
/// what is dropped, and its shortest paths worked out by hand.
@Suite struct SyntheticNetworkTests {
    @Test("the report counts kept and dropped parts")
    func reportCounts() throws {
        let (_, report) = try Fixtures.synthetic()
        #expect(report.waysRead == 9)
        #expect(report.drivableWays == 7)
        #expect(report.droppedWays == [.noAccess: 1, .notForCars: 1])
        #expect(report.missingNodeReferences == 1)
        #expect(report.turnRestrictionsIgnored == 1)
        // A..I and J before the component filter; J (a motorway dead end) is dropped.
        #expect(report.nodesBeforeComponents == 10)
        #expect(report.nodes == 9)
        #expect(report.droppedNodes == 1 && report.droppedEdges == 1)
        // Two-way: A-B-C, A-D-G, C-F-I (4 segments each way); one-way: D-E-F, I-H-G.
        #expect(report.edges == 3 * 2 * 2 + 2 + 2)
    }

    @Test("one-way streets have edges in their direction only")
    func oneWays() throws {
        let (graph, _) = try Fixtures.synthetic()
        #expect(graph.edge(osm: 4, 5) != nil && graph.edge(osm: 5, 4) == nil)   // oneway=yes
        #expect(graph.edge(osm: 9, 8) != nil && graph.edge(osm: 8, 9) == nil)   // oneway=-1
        #expect(graph.edge(osm: 1, 2) != nil && graph.edge(osm: 2, 1) != nil)   // two-way
        #expect(graph.node(osm: 10) == nil)                                      // dead end dropped
    }

    @Test("speeds come from maxspeed, zones and class defaults")
    func speeds() throws {
        let (graph, _) = try Fixtures.synthetic()
        func kmh(_ a: Int64, _ b: Int64) -> Double { graph.speed[graph.edge(osm: a, b)!] * 3.6 }
        #expect(abs(kmh(1, 2) - 36) < 1e-9)                                     // maxspeed=36
        #expect(abs(kmh(4, 5) - 72) < 1e-9)                                     // maxspeed=72
        #expect(abs(kmh(1, 4) - 50) < 1e-9)                                     // FI:urban
        #expect(abs(kmh(9, 8) - RoadClass.tertiary.defaultSpeedKmh) < 1e-9)     // no maxspeed
    }

    @Test("lat/lon project to metres from the south-west corner and back")
    func projection() throws {
        let (graph, _) = try Fixtures.synthetic()
        let a = graph.positions[graph.node(osm: 1)!], d = graph.positions[graph.node(osm: 4)!]
        #expect(abs(a.x) < 1e-6 && abs(a.y) < 1e-6)
        #expect(abs(d.y - 0.0009 * LocalProjection.earthRadius * .pi / 180) < 1e-6)
        let back = graph.projection.unproject(graph.positions[graph.node(osm: 9)!])
        #expect(abs(back.latitude - 60.0018) < 1e-12 && abs(back.longitude - 25.0036) < 1e-12)
    }

    @Test("shortest paths take the fast one-way and detour around the wrong-way ones")
    func shortestPathsByHand() throws {
        let (graph, _) = try Fixtures.synthetic()
        let router = RoadRouter(graph: graph)
        func seconds(_ a: Int64, _ b: Int64) -> Double {
            router.route(fromNode: graph.node(osm: a)!, toNode: graph.node(osm: b)!, departingAt: 0).seconds
        }
        // A→F: up the left side and along the fast middle one-way, not along the bottom.
        #expect(abs(seconds(1, 6) - graph.seconds(along: [1, 4, 5, 6], kmh: [50, 72, 72])) < 1e-9)
        // F→D: the middle is one-way eastbound, so around the top (I→H→G is allowed).
        #expect(abs(seconds(6, 4) - graph.seconds(along: [6, 9, 8, 7, 4], kmh: [25, 40, 40, 50])) < 1e-9)
        // G→I: the top is one-way westbound, so down and through the middle.
        #expect(abs(seconds(7, 9) - graph.seconds(along: [7, 4, 5, 6, 9], kmh: [50, 72, 72, 25])) < 1e-9)
        #expect(seconds(5, 5) == 0)
    }

    @Test("points snap to the nearest segment, and trips include the legs to and from it")
    func snapping() throws {
        let (graph, _) = try Fixtures.synthetic()
        let router = RoadRouter(graph: graph)
        let a = graph.positions[graph.node(osm: 1)!], b = graph.positions[graph.node(osm: 2)!]
        // 20 m south of the middle of A-B: snaps to A-B at its middle.
        let point = Position(x: (a.x + b.x) / 2, y: a.y - 20)
        let snap = router.snap(point)
        #expect(abs(snap.distance - 20) < 1e-9)
        #expect(abs(snap.fraction - 0.5) < 1e-9)
        #expect(Set([graph.edge(osm: 1, 2), graph.edge(osm: 2, 1)]).contains(snap.edge))
        // From there to A: 20 m access at 10 m/s, then half of A-B at 10 m/s.
        let expected = 20.0 / 10 + a.euclideanDistance(to: b) / 2 / 10
        #expect(abs(router.route(from: point, to: a, departingAt: 0).seconds - expected) < 1e-9)
    }

    @Test("two points on one segment drive along it when the direction allows")
    func sameSegment() throws {
        let (graph, _) = try Fixtures.synthetic()
        let router = RoadRouter(graph: graph)
        let d = graph.positions[graph.node(osm: 4)!], e = graph.positions[graph.node(osm: 5)!]
        let p = Position(x: d.x + (e.x - d.x) * 0.25, y: d.y), q = Position(x: d.x + (e.x - d.x) * 0.75, y: d.y)
        let length = d.euclideanDistance(to: e)
        #expect(abs(router.route(from: p, to: q, departingAt: 0).seconds - length / 2 / 20) < 1e-9)
        // Backwards on the one-way: a real detour, far longer than the straight drive.
        #expect(router.route(from: q, to: p, departingAt: 0).seconds > 30)
    }
}
