import DispatchCore
import Foundation

/// An archived ride's id and state (`RideArchive.archivedStates`).
public typealias ArchivedState = (id: RequestID, status: RequestStatus)

/// An ended ride as the archive stores it: what its customer sees of it and when it ended (service
/// clock), the time the retention rule (`deleteArchivedRides(endedBefore:chunk:)`) goes by.
public struct EndedRide: Sendable, Equatable {
    public var ride: RideSnapshot
    public var endedAt: Double

    public init(_ ride: RideSnapshot, endedAt: Double) {
        self.ride = ride
        self.endedAt = endedAt
    }
}

/// Where the host keeps ended rides once they leave its memory: what their customer sees of
/// them (`RideSnapshot`), by id, so `GET /v1/rides/{id}` keeps answering for them.
///
/// Contract: `archive` returns once the rides are durable, in one transaction, keeping a ride
/// stored before with the same id (only ended rides are archived, so a stored ride never changes:
/// archiving it again changes nothing); `archivedCounts` counts each id once, without reading the
/// whole archive (SQLite and PostgreSQL keep the counts in the archive's transactions). The counts are
/// totals of every ride ever archived: `deleteArchivedRides` (retention) removes rows, never counts, so
/// after a deletion the counts exceed the rows. Every `DispatchStore` is one.
public protocol RideArchive: Sendable {
    /// Stores ended rides (a ride already stored stays as it is).
    func archive(_ rides: [EndedRide]) async throws
    /// An archived ride, or nil.
    func archivedRide(_ id: RequestID) async throws -> RideSnapshot?
    /// A customer's archived rides, oldest (lowest id) first.
    func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot]
    /// Ids and states of archived rides with ids above `after`, id order, at most `limit`.
    func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState]
    /// Archived rides by state, ever (deleted rows included). - Complexity: O(states) on SQLite and PostgreSQL.
    func archivedCounts() async throws -> [RequestStatus: Int]
    /// Deletes the archived rides that ended before `time` (strictly), at most `chunk` rows a transaction
    /// so commands and archiving keep committing in between; `archivedCounts` is unchanged.
    /// - Returns: how many rides were deleted.
    func deleteArchivedRides(endedBefore time: Double, chunk: Int) async throws -> Int
}

extension RideArchive {
    /// Rows deleted per transaction by the retention rule.
    public static var retentionChunk: Int { 20_000 }

    /// `deleteArchivedRides(endedBefore:chunk:)` in transactions of `retentionChunk` rows.
    public func deleteArchivedRides(endedBefore time: Double) async throws -> Int {
        try await deleteArchivedRides(endedBefore: time, chunk: Self.retentionChunk)
    }
}

/// The stored form of an archived ride: one row of id, customer, state name and this JSON.
///
/// Invariant: `snapshot(id:customer:status:)` of `ArchivedRideRow(snapshot)` gives the snapshot back.
struct ArchivedRideRow: Codable, Sendable {
    var ox: Double, oy: Double, dx: Double, dy: Double
    var requestedAt: Double
    var meetingTime: Double?
    var taxiCode: String?
    var eta: Double?
    var fare: Double

    init(_ ride: RideSnapshot) {
        ox = ride.origin.x; oy = ride.origin.y; dx = ride.destination.x; dy = ride.destination.y
        requestedAt = ride.requestedAt
        meetingTime = ride.meetingTime
        taxiCode = ride.taxiCode
        eta = ride.etaSeconds
        fare = ride.fareCharged
    }

    static let encoder = JSONEncoder()
    static let decoder = JSONDecoder()

    /// The row's JSON text.
    static func json(_ ride: RideSnapshot) throws -> String {
        String(decoding: try encoder.encode(ArchivedRideRow(ride)), as: UTF8.self)
    }

    /// The snapshot a stored row stands for.
    /// - Throws: `StoreError.corruptArchive` for a state name or JSON that does not read.
    static func snapshot(id: Int, customer: Int, status: String, json: String) throws -> RideSnapshot {
        guard let state = endedStatus(status), let row = try? decoder.decode(Self.self, from: Data(json.utf8)) else {
            throw StoreError.corruptArchive(id: id)
        }
        return RideSnapshot(id: RequestID(id), customer: CustomerID(customer), status: state,
                            origin: Position(x: row.ox, y: row.oy), destination: Position(x: row.dx, y: row.dy),
                            requestedAt: row.requestedAt, meetingTime: row.meetingTime, taxiCode: row.taxiCode,
                            etaSeconds: row.eta, fareCharged: row.fare)
    }

    /// The stored name of an ended state.
    static func name(_ status: RequestStatus) -> String { RideBody.name(of: status) }

    /// The ended state of a stored name, or nil.
    static func endedStatus(_ name: String) -> RequestStatus? {
        switch name {
        case "completed": .completed
        case "rejected": .rejected
        case "cancelled": .cancelled
        case "expired": .expired
        default: nil
        }
    }
}
