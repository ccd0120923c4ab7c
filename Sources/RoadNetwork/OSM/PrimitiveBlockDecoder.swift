import Foundation

/// Turns one decoded `PrimitiveBlock` into nodes, ways and turn restrictions of an `OSMExtract`.
///
/// Invariant: coordinates follow the format's rule `degrees = 1e-9 × (offset + granularity × value)`;
/// string indices are checked against the block's string table (an out-of-range index throws).
struct PrimitiveBlockDecoder {
    let block: OSMPBF_PrimitiveBlock
    let file: String
    let offset: Int
    let strings: [String]

    init(block: OSMPBF_PrimitiveBlock, file: String, offset: Int) {
        self.block = block
        self.file = file
        self.offset = offset
        self.strings = block.stringtable.s.map { String(decoding: $0, as: UTF8.self) }
    }

    func decode(into extract: inout OSMExtract, keepWay: ([String: String]) -> Bool) throws {
        for group in block.primitivegroup {
            for node in group.nodes {
                extract.nodes[node.id] = coordinate(lat: node.lat, lon: node.lon)
            }
            if group.hasDense { try decodeDense(group.dense, into: &extract) }
            for way in group.ways {
                let tags = try tagMap(keys: way.keys, values: way.vals)
                guard keepWay(tags) else { extract.skippedWays += 1; continue }
                var ids: [Int64] = []
                ids.reserveCapacity(way.refs.count)
                var id: Int64 = 0
                for delta in way.refs { id &+= delta; ids.append(id) }
                extract.ways.append(OSMWay(id: way.id, nodeIDs: ids, tags: tags))
            }
            for relation in group.relations {
                if let restriction = try turnRestriction(relation) { extract.turnRestrictions.append(restriction) }
            }
        }
    }

    func coordinate(lat: Int64, lon: Int64) -> LatLon {
        let granularity = Int64(block.granularity)
        return LatLon(latitude: 1e-9 * Double(block.latOffset &+ granularity &* lat),
                      longitude: 1e-9 * Double(block.lonOffset &+ granularity &* lon))
    }

    func decodeDense(_ dense: OSMPBF_DenseNodes, into extract: inout OSMExtract) throws {
        guard dense.lat.count == dense.id.count, dense.lon.count == dense.id.count else {
            throw RoadNetworkError.malformedFile(file: file, reason: "dense nodes at byte \(offset): \(dense.id.count) ids, \(dense.lat.count) lats, \(dense.lon.count) lons")
        }
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        for i in dense.id.indices {
            id &+= dense.id[i]; lat &+= dense.lat[i]; lon &+= dense.lon[i]
            extract.nodes[id] = coordinate(lat: lat, lon: lon)
        }
    }

    func string(_ index: Int) throws -> String {
        guard index >= 0, index < strings.count else {
            throw RoadNetworkError.malformedFile(file: file, reason: "string index \(index) at byte \(offset) is outside the table of \(strings.count)")
        }
        return strings[index]
    }

    func tagMap(keys: [UInt32], values: [UInt32]) throws -> [String: String] {
        guard keys.count == values.count else {
            throw RoadNetworkError.malformedFile(file: file, reason: "\(keys.count) tag keys but \(values.count) values at byte \(offset)")
        }
        var tags: [String: String] = [:]
        for i in keys.indices { tags[try string(Int(keys[i]))] = try string(Int(values[i])) }
        return tags
    }

    /// A `type=restriction` relation with one `from` way, one `via` node and one `to` way; others are nil.
    func turnRestriction(_ relation: OSMPBF_Relation) throws -> OSMTurnRestriction? {
        let tags = try tagMap(keys: relation.keys, values: relation.vals)
        guard tags["type"] == "restriction", let kind = tags["restriction"] ?? tags["restriction:motorcar"] else { return nil }
        guard relation.memids.count == relation.rolesSid.count, relation.types.count == relation.memids.count else {
            throw RoadNetworkError.malformedFile(file: file, reason: "relation \(relation.id) has unequal member lists at byte \(offset)")
        }
        var from: Int64?, via: Int64?, to: Int64?
        var member: Int64 = 0
        for i in relation.memids.indices {
            member &+= relation.memids[i]
            switch (try string(Int(relation.rolesSid[i])), relation.types[i]) {
            case ("from", .way): from = member
            case ("to", .way): to = member
            case ("via", .node): via = member
            case ("via", _): return nil
            default: break
            }
        }
        guard let from, let via, let to else { return nil }
        return OSMTurnRestriction(id: relation.id, restriction: kind, fromWay: from, viaNode: via, toWay: to)
    }
}
