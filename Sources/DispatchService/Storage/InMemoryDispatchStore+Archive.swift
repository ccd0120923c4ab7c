import DispatchCore
import Synchronization

/// The in-memory archive: rides by id with their end, and the counts of every ride ever archived
/// (kept apart, as SQLite's `archived_count` is, so retention deletes rows but never counts).
struct InMemoryArchive {
    var rides: [RequestID: EndedRide] = [:]
    var counts: [RequestStatus: Int] = [:]
}

/// `RideArchive` in memory (tests).
extension InMemoryDispatchStore {
    public func archive(_ rides: [EndedRide]) async throws {
        archived.withLock { archive in
            for ended in rides where archive.rides[ended.ride.id] == nil {
                archive.rides[ended.ride.id] = ended
                archive.counts[ended.ride.status, default: 0] += 1
            }
        }
    }

    public func archivedRide(_ id: RequestID) async throws -> RideSnapshot? { archived.withLock { $0.rides[id]?.ride } }

    public func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot] {
        archived.withLock { archive in
            archive.rides.values.map(\.ride).filter { $0.customer == customer }.sorted { $0.id < $1.id }
        }
    }

    public func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        archived.withLock { archive in
            archive.rides.values.map(\.ride).filter { $0.id.rawValue > after }.sorted { $0.id < $1.id }.prefix(limit)
                .map { ($0.id, $0.status) }
        }
    }

    public func archivedCounts() async throws -> [RequestStatus: Int] { archived.withLock { $0.counts } }

    public func deleteArchivedRides(endedBefore time: Double, chunk: Int) async throws -> Int {
        archived.withLock { archive in
            let old = archive.rides.values.filter { $0.endedAt < time }.map(\.ride.id)
            for id in old { archive.rides[id] = nil }
            return old.count
        }
    }
}
