import DispatchCore
import GRDB

/// `RideArchive` on SQLite: table `archived_ride` (migration `v2`), one row per ended ride, and
/// `archived_count` (migration `v4`), the rides ever archived by state, kept in the same transactions, so a
/// restart reads the counts without scanning the archive. `ended_at` (migration `v5`, indexed) is the
/// time the retention rule deletes by; rows archived before `v5` get their request or meeting time
/// (the later), a lower bound of their end.
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

    static func registerArchiveEnd(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                ALTER TABLE archived_ride ADD COLUMN ended_at REAL;
                UPDATE archived_ride SET ended_at = MAX(json_extract(ride, '$.requestedAt'),
                                                        COALESCE(json_extract(ride, '$.meetingTime'), 0));
                CREATE INDEX archived_ride_ended ON archived_ride(ended_at);
                """)
        }
    }

    public func archive(_ rides: [EndedRide]) async throws {
        let rows = try rides.map { ended in
            let ride = ended.ride
            return (ride.id.rawValue, ride.customer.rawValue, ArchivedRideRow.name(ride.status), try ArchivedRideRow.json(ride),
                    ended.endedAt)
        }
        try await database.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO archived_ride (id, customer, status, ride, ended_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """)
            var added: [String: Int] = [:]
            for (id, customer, status, json, endedAt) in rows {
                try statement.execute(arguments: [id, customer, status, json, endedAt])
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

    public func deleteArchivedRides(endedBefore time: Double, chunk: Int) async throws -> Int {
        var deleted = 0
        while true {
            let n = try await database.write { db in
                try db.execute(sql: """
                    DELETE FROM archived_ride WHERE id IN (SELECT id FROM archived_ride WHERE ended_at < ? LIMIT ?)
                    """, arguments: [time, chunk])
                return db.changesCount
            }
            deleted += n
            if n < chunk { return deleted }
        }
    }

    private static func ride(_ row: Row) throws -> RideSnapshot {
        try ArchivedRideRow.snapshot(id: row["id"], customer: row["customer"], status: row["status"], json: row["ride"])
    }
}
