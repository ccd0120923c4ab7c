import DispatchCore
import PostgresNIO

/// `RideArchive` on PostgreSQL: table `archived_ride` (migration `v2`), one row per ended ride, and
/// `archived_count` (migration `v4`), the rides ever archived by state, kept in the same transactions.
/// `ended_at` (migration `v5`, indexed) is the time the retention rule deletes by; rows archived before
/// `v5` get their request or meeting time (the later), a lower bound of their end.
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

    static let archiveEndMigration: PostgresMigrator.Migration = ("v5", [
        "ALTER TABLE archived_ride ADD COLUMN ended_at DOUBLE PRECISION",
        """
        UPDATE archived_ride SET ended_at = GREATEST((ride::jsonb ->> 'requestedAt')::DOUBLE PRECISION,
                                                     (ride::jsonb ->> 'meetingTime')::DOUBLE PRECISION)
        """,
        "CREATE INDEX archived_ride_ended ON archived_ride(ended_at)",
    ])

    /// One statement for the batch (arrays unnested server-side), keeping rides stored before; the
    /// counts of the rows it added in the same statement (a data-modifying CTE).
    public func archive(_ ended: [EndedRide]) async throws {
        guard !ended.isEmpty else { return }
        let rides = ended.map(\.ride)
        let ids = rides.map(\.id.rawValue)
        let customers = rides.map(\.customer.rawValue)
        let states = rides.map { ArchivedRideRow.name($0.status) }
        let texts = try rides.map(ArchivedRideRow.json)
        let ends = ended.map(\.endedAt)
        try await client.query("""
            WITH added AS (
                INSERT INTO archived_ride (id, customer, status, ride, ended_at)
                SELECT * FROM unnest(\(ids)::BIGINT[], \(customers)::BIGINT[], \(states)::TEXT[], \(texts)::TEXT[],
                                     \(ends)::DOUBLE PRECISION[])
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

    public func deleteArchivedRides(endedBefore time: Double, chunk: Int) async throws -> Int {
        var deleted = 0
        while true {
            let rows = try await client.query("""
                WITH gone AS (DELETE FROM archived_ride
                              WHERE id IN (SELECT id FROM archived_ride WHERE ended_at < \(time) LIMIT \(chunk))
                              RETURNING 1)
                SELECT COUNT(*) FROM gone
                """, logger: logger)
            var n = 0
            for try await count in rows.decode(Int.self) { n = count }
            deleted += n
            if n < chunk { return deleted }
        }
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
