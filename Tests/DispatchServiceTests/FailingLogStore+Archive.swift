import DispatchCore
@testable import DispatchService

/// `FailingLogStore` archives like the in-memory store it wraps (only its log and account reads fail).
extension FailingLogStore {
    func archive(_ rides: [EndedRide]) async throws { try await base.archive(rides) }
    func archivedRide(_ id: RequestID) async throws -> RideSnapshot? { try await base.archivedRide(id) }
    func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot] { try await base.archivedRides(of: customer) }
    func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        try await base.archivedStates(after: after, limit: limit)
    }
    func archivedCounts() async throws -> [RequestStatus: Int] { try await base.archivedCounts() }
    func deleteArchivedRides(endedBefore time: Double, chunk: Int) async throws -> Int {
        try await base.deleteArchivedRides(endedBefore: time, chunk: chunk)
    }
}
