import DispatchCore
import GRDB
import PostgresNIO
import Testing
@testable import DispatchService

/// Migration `v5` on an archive a `v4` build filled: `ended_at` is backfilled, the counts stay, and the
/// retention rule then goes by the backfilled ends (SQLite and PostgreSQL; the in-memory store has no schema).
extension StoreContract {
    /// Rides as a `v4` build archived them: with and without a meeting time, the meeting time later
    /// and earlier than the request, fractions that are not binary (200.3) as well as ones that are.
    static let archivedByV4: [RideSnapshot] = [
        ride(1, .completed, requestedAt: 1_700_000_000.125, meetingTime: nil, code: "TX-1"),
        ride(2, .expired, requestedAt: 1_700_000_100.5, meetingTime: 1_700_010_000, code: nil),
        ride(3, .rejected, requestedAt: 1_700_000_200.3, meetingTime: nil, code: nil),
        ride(4, .cancelled, requestedAt: 1_700_000_300, meetingTime: 1_700_000_050, code: nil),
        ride(5, .completed, requestedAt: 1_700_000_400, meetingTime: 1_700_005_000.75, code: "TX-2"),
    ]

    static func ride(_ id: Int, _ status: RequestStatus, requestedAt: Double, meetingTime: Double?, code: String?) -> RideSnapshot {
        RideSnapshot(id: RequestID(id), customer: CustomerID(7), status: status,
                     origin: Position(x: 900.5, y: 400), destination: Position(x: 3000, y: 2999.25),
                     requestedAt: requestedAt, meetingTime: meetingTime, taxiCode: code,
                     etaSeconds: code == nil ? nil : 61.5, fareCharged: code == nil ? 0 : 12.75)
    }

    /// Upgrading a `v4` archive gives each row the later of its request and meeting time as `ended_at`,
    /// leaves `archived_count` as it was, and the retention then deletes exactly the rows that end before its cutoff.
    static func upgradingAV4ArchiveBackfillsEachEndAndRetentionGoesByIt(_ engine: StoreEngine) async throws {
        try await engine.withSite { site in
            try await site.withSchema(through: "v4") { old in try await archiveAsV4(archivedByV4, into: old) }
            let counts: [RequestStatus: Int] = [.completed: 2, .expired: 1, .rejected: 1, .cancelled: 1]
            let store = try await site.open()  // runs v5
            let expected: [Int: Double?] = Dictionary(uniqueKeysWithValues: archivedByV4.map { ride in
                (ride.id.rawValue, max(ride.requestedAt, ride.meetingTime ?? -.infinity))
            })
            #expect(try await endedAt(in: store) == expected)
            #expect(try await store.archivedCounts() == counts)
            // Ends 000.125, 200.3 and 300 (ride 4: its meeting time is earlier) are before the cutoff; 5 ends at it.
            #expect(try await store.deleteArchivedRides(endedBefore: 1_700_005_000.75) == 3)
            #expect(try await store.archivedStates(after: 0, limit: 10).map(\.id.rawValue) == [2, 5])
            #expect(try await store.archivedRide(RequestID(2)) == archivedByV4[1])
            #expect(try await store.archivedRide(RequestID(5)) == archivedByV4[4])
            #expect(try await store.archivedCounts() == counts)
        }
    }

    /// Writes `rides` as the `v4` build's `archive` did: no `ended_at`, counts kept in the same transaction.
    static func archiveAsV4(_ rides: [RideSnapshot], into old: StoreSite.OldSchema) async throws {
        switch old {
        case .sqlite(let queue):
            let rows = try rides.map { ($0.id.rawValue, $0.customer.rawValue, ArchivedRideRow.name($0.status), try ArchivedRideRow.json($0)) }
            try await queue.write { db in
                var added: [String: Int] = [:]
                for (id, customer, status, json) in rows {
                    try db.execute(sql: "INSERT INTO archived_ride (id, customer, status, ride) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                                   arguments: [id, customer, status, json])
                    if db.changesCount > 0 { added[status, default: 0] += 1 }
                }
                for (status, n) in added {
                    try db.execute(sql: "INSERT INTO archived_count (status, n) VALUES (?, ?) ON CONFLICT (status) DO UPDATE SET n = n + excluded.n",
                                   arguments: [status, n])
                }
            }
        case .postgres(let store):
            let ids = rides.map(\.id.rawValue)
            let customers = rides.map(\.customer.rawValue)
            let states = rides.map { ArchivedRideRow.name($0.status) }
            let texts = try rides.map(ArchivedRideRow.json)
            try await store.client.query("""
                WITH added AS (
                    INSERT INTO archived_ride (id, customer, status, ride)
                    SELECT * FROM unnest(\(ids)::BIGINT[], \(customers)::BIGINT[], \(states)::TEXT[], \(texts)::TEXT[])
                    ON CONFLICT (id) DO NOTHING RETURNING status)
                INSERT INTO archived_count (status, n) SELECT status, COUNT(*) FROM added GROUP BY status
                ON CONFLICT (status) DO UPDATE SET n = archived_count.n + EXCLUDED.n
                """)
        }
    }

    /// Every archived row's `ended_at` by id (NULL as nil).
    static func endedAt(in store: any DispatchStore) async throws -> [Int: Double?] {
        var ends: [Int: Double?] = [:]
        switch store {
        case let sqlite as SQLiteDispatchStore:
            let rows = try await sqlite.database.read { db in try Row.fetchAll(db, sql: "SELECT id, ended_at FROM archived_ride") }
            for row in rows { ends[row["id"]] = row["ended_at"] as Double? }
        case let postgres as PostgresDispatchStore:
            for try await (id, end) in try await postgres.client.query("SELECT id, ended_at FROM archived_ride")
                .decode((Int, Double?).self) {
                ends[id] = end
            }
        default:
            Issue.record("no ended_at column in \(type(of: store))")
        }
        return ends
    }
}
