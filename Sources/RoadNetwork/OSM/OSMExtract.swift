/// A point on the Earth in degrees (WGS 84), as OpenStreetMap stores it.
///
/// Invariant: none enforced here; readers only produce latitudes in [-90, 90] and longitudes in [-180, 180].
public struct LatLon: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude)°, \(longitude)°)" }
}

/// An OpenStreetMap way: an ordered list of node ids and its tags.
///
/// Invariant: `nodeIDs` keeps the file's order (one-way direction depends on it).
public struct OSMWay: Sendable, Equatable {
    public var id: Int64
    public var nodeIDs: [Int64]
    public var tags: [String: String]

    public init(id: Int64, nodeIDs: [Int64], tags: [String: String]) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }
}

/// A turn restriction relation (`type=restriction`) reduced to its via node, if it has one.
///
/// Invariant: `fromWay`/`toWay` are way ids; `viaNode` is a node id. Relations with way-vias
/// are not represented.
public struct OSMTurnRestriction: Sendable, Equatable {
    public var id: Int64
    public var restriction: String
    public var fromWay: Int64
    public var viaNode: Int64
    public var toWay: Int64
}

/// The part of an OpenStreetMap extract a road network is built from: node coordinates, the
/// ways a caller kept, and node-via turn restrictions.
///
/// Invariant: `nodes` holds every node the file contained (ways may still reference nodes
/// outside the extract; builders must count and drop those references).
public struct OSMExtract: Sendable {
    public var nodes: [Int64: LatLon] = [:]
    public var ways: [OSMWay] = []
    public var turnRestrictions: [OSMTurnRestriction] = []
    /// Ways the reader skipped because the caller's filter rejected them.
    public var skippedWays = 0

    public init() {}
}
