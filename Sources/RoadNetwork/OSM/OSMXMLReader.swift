import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads OpenStreetMap XML (`.osm`) files with Foundation's `XMLParser`: `<node>`, `<way>` with
/// `<nd ref>` and `<tag k v>`, and node-via turn-restriction `<relation>`s.
///
/// Invariant: a file either reads completely or throws a `RoadNetworkError` naming the file, the
/// line and the reason (bad XML, a node without lat/lon, a non-numeric id).
public enum OSMXMLReader {
    /// Reads a whole file from disk.
    public static func read(path: String, keepWay: @escaping ([String: String]) -> Bool = { _ in true }) throws -> OSMExtract {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RoadNetworkError.malformedFile(file: path, reason: "cannot read the file")
        }
        return try read(bytes: data, file: path, keepWay: keepWay)
    }

    /// Decodes an OSM XML document. `file` names it in errors.
    public static func read(bytes: Data, file: String, keepWay: @escaping ([String: String]) -> Bool = { _ in true }) throws -> OSMExtract {
        let parser = XMLParser(data: bytes)
        let delegate = Delegate(file: file, keepWay: keepWay)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok else {
            throw RoadNetworkError.malformedFile(file: file, reason: "line \(parser.lineNumber): \(parser.parserError.map { "\($0)" } ?? "XML error")")
        }
        guard delegate.sawRoot else { throw RoadNetworkError.malformedFile(file: file, reason: "no <osm> root element") }
        return delegate.extract
    }

    final class Delegate: NSObject, XMLParserDelegate {
        let file: String
        let keepWay: ([String: String]) -> Bool
        var extract = OSMExtract()
        var error: RoadNetworkError?
        var sawRoot = false
        var wayID: Int64?
        var relationID: Int64?
        var refs: [Int64] = []
        var tags: [String: String] = [:]
        var members: [(type: String, ref: Int64, role: String)] = []

        init(file: String, keepWay: @escaping ([String: String]) -> Bool) {
            self.file = file
            self.keepWay = keepWay
        }

        func fail(_ parser: XMLParser, _ reason: String) {
            if error == nil { error = .malformedFile(file: file, reason: "line \(parser.lineNumber): \(reason)") }
            parser.abortParsing()
        }

        func integer(_ parser: XMLParser, _ attributes: [String: String], _ key: String, in element: String) -> Int64? {
            guard let text = attributes[key], let value = Int64(text) else {
                fail(parser, "<\(element)> needs a numeric \(key) (got \(attributes[key].map { "\"\($0)\"" } ?? "none"))")
                return nil
            }
            return value
        }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            switch name {
            case "osm": sawRoot = true
            case "node":
                guard let id = integer(parser, attributes, "id", in: name) else { return }
                guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                      (-90...90).contains(lat), (-180...180).contains(lon) else {
                    return fail(parser, "<node id=\"\(id)\"> needs lat in [-90, 90] and lon in [-180, 180]")
                }
                extract.nodes[id] = LatLon(latitude: lat, longitude: lon)
            case "way":
                wayID = integer(parser, attributes, "id", in: name); refs = []; tags = [:]
            case "relation":
                relationID = integer(parser, attributes, "id", in: name); members = []; tags = [:]
            case "nd":
                if wayID != nil, let ref = integer(parser, attributes, "ref", in: name) { refs.append(ref) }
            case "tag":
                guard let k = attributes["k"], let v = attributes["v"] else { return fail(parser, "<tag> needs k and v") }
                tags[k] = v
            case "member":
                if relationID != nil, let ref = integer(parser, attributes, "ref", in: name) {
                    members.append((attributes["type"] ?? "", ref, attributes["role"] ?? ""))
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "way":
                if let id = wayID {
                    if keepWay(tags) { extract.ways.append(OSMWay(id: id, nodeIDs: refs, tags: tags)) } else { extract.skippedWays += 1 }
                }
                wayID = nil
            case "relation":
                if let id = relationID, tags["type"] == "restriction", let kind = tags["restriction"] ?? tags["restriction:motorcar"],
                   let from = members.first(where: { $0.role == "from" && $0.type == "way" }),
                   let via = members.first(where: { $0.role == "via" && $0.type == "node" }),
                   let to = members.first(where: { $0.role == "to" && $0.type == "way" }) {
                    extract.turnRestrictions.append(OSMTurnRestriction(id: id, restriction: kind, fromWay: from.ref, viaNode: via.ref, toWay: to.ref))
                }
                relationID = nil
            default: break
            }
        }
    }
}
