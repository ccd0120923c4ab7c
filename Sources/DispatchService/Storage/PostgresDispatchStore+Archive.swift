import DispatchCore
import PostgresNIO

/// `RideArchive` on PostgreSQL: table `archived_ride` (migration `v2`), one row per ended ride, and
/// `archived_count` (migration `v4`), the rows by state, kept in the same transactions.
extension PostgresDispatchStore {
    static let archiveMigration: PostgresMigrator.Migration = ("v2", [
        """
        CREATE TABLE archived_ride (id BIGINT PRIMARY KEY, customer BIGINT NOT NULL, status TEXT NOT NULL,
            ride TEXT NOT NULL)
        """,
        "CREATE INDEX archived_ride_customer ON archived_ride(customer)",
    ])

    static let archiveCountMigration: PostgresMigrator.Migration = ("v4", [
        "CREATE TABLE archived_count (status TEXT PRIMARY KEY, n BIGINT NOT NULL)",
        "INSERT INTO archived_count (status, n) SELECT status, COUNT(*) FROM archived_ride GROUP BY status",
    ])

    /// One statement for the batch (arrays unnested server-side), keeping rides stored before; the
    /// counts of the rows it added in the same statement (a data-modifying CTE).
    public func archive(_ rides: [RideSnapshot]) async throws {
        guard !rides.isEmpty else { return }
        let ids = rides.map(\.id.rawValue)
        let customers = rides.map(\.customer.rawValue)
        let states = rides.map { ArchivedRideRow.name($0.status) }
        let texts = try rides.map(ArchivedRideRow.json)
        try await client.query("""
            WITH added AS (
                INSERT INTO archived_ride (id, customer, status, ride)
                SELECT * FROM unnest(\(ids)::BIGINT[], \(customers)::BIGINT[], \(states)::TEXT[], \(texts)::TEXT[])
                ON CONFLICT (id) DO NOTHING RETURNING status)
            INSERT INTO archived_count (status, n) SELECT status, COUNT(*) FROM added GROUP BY status
            ON CONFLICT (status) DO UPDATE SET n = archived_count.n + EXCLUDED.n
            """, logger: logger)
    }

    public func archivedRide(_ id: RequestID) async throws -> RideSnapshot? {
        try await rides("SELECT id, customer, status, ride FROM archived_ride WHERE id = \(id.rawValue)").first
    }

    public func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot] {
        try await rides("SELECT id, customer, status, ride FROM archived_ride WHERE customer = \(customer.rawValue) ORDER BY id")
    }

    public func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        let rows = try await client.query(
            "SELECT id, status FROM archived_ride WHERE id > \(after) ORDER BY id LIMIT \(limit)", logger: logger)
        var states: [ArchivedState] = []
        for try await (id, name) in rows.decode((Int, String).self) {
            guard let status = ArchivedRideRow.endedStatus(name) else { throw StoreError.corruptArchive(id: id) }
            states.append((RequestID(id), status))
        }
        return states
    }

    public func archivedCounts() async throws -> [RequestStatus: Int] {
        let rows = try await client.query("SELECT status, n FROM archived_count WHERE n > 0", logger: logger)
        var counts: [RequestStatus: Int] = [:]
        for try await (name, count) in rows.decode((String, Int).self) {
            guard let status = ArchivedRideRow.endedStatus(name) else { throw StoreError.corruptArchive(id: -1) }
            counts[status] = count
        }
        return counts
    }

    private func rides(_ query: PostgresQuery) async throws -> [RideSnapshot] {
        var rides: [RideSnapshot] = []
        for try await (id, customer, status, json) in try await client.query(query, logger: logger)
            .decode((Int, Int, String, String).self) {
            rides.append(try ArchivedRideRow.snapshot(id: id, customer: customer, status: status, json: json))
        }
        return rides
    }
}
