import DispatchCore
import GRDB

/// `RideArchive` on SQLite: table `archived_ride` (migration `v2`), one row per ended ride, and
/// `archived_count` (migration `v4`), the rows by state, kept in the same transactions, so a restart
/// reads the counts without scanning an archive that grows with uptime.
extension SQLiteDispatchStore {
    static func registerArchive(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE archived_ride (id INTEGER PRIMARY KEY, customer INTEGER NOT NULL, status TEXT NOT NULL,
                                            ride TEXT NOT NULL);
                CREATE INDEX archived_ride_customer ON archived_ride(customer);
                """)
        }
    }

    static func registerArchiveCounts(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE archived_count (status TEXT PRIMARY KEY, n INTEGER NOT NULL);
                INSERT INTO archived_count (status, n) SELECT status, COUNT(*) FROM archived_ride GROUP BY status;
                """)
        }
    }

    public func archive(_ rides: [RideSnapshot]) async throws {
        let rows = try rides.map { ($0.id.rawValue, $0.customer.rawValue, ArchivedRideRow.name($0.status), try ArchivedRideRow.json($0)) }
        try await database.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO archived_ride (id, customer, status, ride) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")
            var added: [String: Int] = [:]
            for (id, customer, status, json) in rows {
                try statement.execute(arguments: [id, customer, status, json])
                if db.changesCount > 0 { added[status, default: 0] += 1 }
            }
            let count = try db.cachedStatement(
                sql: "INSERT INTO archived_count (status, n) VALUES (?, ?) ON CONFLICT (status) DO UPDATE SET n = n + excluded.n")
            for (status, n) in added { try count.execute(arguments: [status, n]) }
        }
    }

    public func archivedRide(_ id: RequestID) async throws -> RideSnapshot? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM archived_ride WHERE id = ?", arguments: [id.rawValue]).map(Self.ride)
        }
    }

    public func archivedRides(of customer: CustomerID) async throws -> [RideSnapshot] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM archived_ride WHERE customer = ? ORDER BY id",
                             arguments: [customer.rawValue]).map(Self.ride)
        }
    }

    public func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, status FROM archived_ride WHERE id > ? ORDER BY id LIMIT ?",
                             arguments: [after, limit]).map { row in
                let id: Int = row["id"]
                guard let status = ArchivedRideRow.endedStatus(row["status"]) else { throw StoreError.corruptArchive(id: id) }
                return (id: RequestID(id), status: status)
            }
        }
    }

    public func archivedCounts() async throws -> [RequestStatus: Int] {
        try await database.read { db in
            var counts: [RequestStatus: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT status, n FROM archived_count WHERE n > 0") {
                guard let status = ArchivedRideRow.endedStatus(row["status"]) else { throw StoreError.corruptArchive(id: -1) }
                counts[status] = row["n"]
            }
            return counts
        }
    }

    private static func ride(_ row: Row) throws -> RideSnapshot {
        try ArchivedRideRow.snapshot(id: row["id"], customer: row["customer"], status: row["status"], json: row["ride"])
    }
}
