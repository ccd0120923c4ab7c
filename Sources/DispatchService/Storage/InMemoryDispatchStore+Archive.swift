import DispatchCore
import Synchronization

/// `RideArchive` in memory (tests): a dictionary by id.
extension InMemoryDispatchStore {
    public func archive(_ rides: [RideSnapshot]) async throws {
        archived.withLock { table in for ride in rides { table[ride.id] = ride } }
    }

    public func archivedRide(_ id: RequestID) async throws -> RideSnapshot? { archived.withLock { $0[id] } }

    public func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot] {
        archived.withLock { table in table.values.filter { $0.customer == customer }.sorted { $0.id < $1.id } }
    }

    public func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        archived.withLock { table in
            table.values.filter { $0.id.rawValue > after }.sorted { $0.id < $1.id }.prefix(limit).map { ($0.id, $0.status) }
        }
    }

    public func archivedCounts() async throws -> [RequestStatus: Int] {
        archived.withLock { table in table.values.reduce(into: [:]) { $0[$1.status, default: 0] += 1 } }
    }
}
