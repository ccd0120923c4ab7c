import Foundation
import Testing
@testable import RoadNetwork

/// The .osm.pbf reader on the bundled Helsinki extract and on broken files.
@Suite struct PBFReaderTests {
    @Test("Helsinki reads into a strongly connected drivable network of the extract's size")
    func helsinkiLoads() throws {
        let (graph, report) = try Fixtures.helsinki.get()
        // The committed extract's counts (pinned: a reader change that alters them must say why).
        #expect(report.waysRead == 5_130 && report.drivableWays == 911)
        #expect(report.droppedWays == [.notForCars: 1_648, .noAccess: 85, .area: 6])
        #expect(report.missingNodeReferences == 150)
        #expect(report.nodesBeforeComponents == 1_886 && report.edgesBeforeComponents == 2_891 && report.components == 128)
        #expect(report.nodes == 1_649 && report.edges == 2_580)
        #expect(report.turnRestrictionsIgnored == 45)
        // Every node is in Helsinki (about 60.1-60.3° N, 24.8-25.1° E).
        for v in stride(from: 0, to: graph.nodeCount, by: 97) {
            let p = graph.projection.unproject(graph.positions[v])
            #expect((59.9...60.4).contains(p.latitude) && (24.5...25.4).contains(p.longitude))
        }
        #expect(StrongComponents(firstOut: graph.firstOut, head: graph.head).count == 1)
    }

    @Test("the reader sees dense nodes and ways with their tags")
    func denseNodesAndTags() throws {
        let extract = try PBFReader.read(path: Fixtures.helsinkiPath, keepWay: RoadGraphBuilder.isHighway)
        #expect(extract.nodes.count == 24_260)
        #expect(extract.ways.allSatisfy { $0.tags["highway"] != nil })
        #expect(extract.ways.contains { $0.tags["highway"] == "primary" && $0.tags["name"] != nil })
        #expect(extract.skippedWays > 0)
    }

    @Test("a file that is not PBF fails with the file name and the reason")
    func notPBF() {
        let bytes = Data("<osm version=\"0.6\"></osm>".utf8)
        #expect(throws: RoadNetworkError.self) { try PBFReader.read(bytes: bytes, file: "city.osm.pbf") }
        do { _ = try PBFReader.read(bytes: bytes, file: "city.osm.pbf") } catch {
            #expect("\(error)".hasPrefix("city.osm.pbf: malformed"))
        }
    }

    @Test("a truncated file fails instead of trapping")
    func truncated() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: Fixtures.helsinkiPath))
        for cut in [3, 20, 200, whole.count / 2] {
            #expect(throws: RoadNetworkError.self) { try PBFReader.read(bytes: whole.prefix(cut), file: "cut.pbf") }
        }
    }

    @Test("a missing file names the path")
    func missingFile() {
        #expect(throws: RoadNetworkError.malformedFile(file: "/nonexistent.osm.pbf", reason: "cannot read the file")) {
            try PBFReader.read(path: "/nonexistent.osm.pbf")
        }
    }

    @Test("the XML reader reports the line of a bad node")
    func badXML() {
        let xml = Data("<osm>\n<node id=\"1\" lat=\"x\" lon=\"2\"/>\n</osm>".utf8)
        do {
            _ = try OSMXMLReader.read(bytes: xml, file: "bad.osm")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".contains("bad.osm") && "\(error)".contains("line 2"))
        }
    }
}
