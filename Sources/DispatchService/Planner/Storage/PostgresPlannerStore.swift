import Foundation
import Logging
import PostgresNIO
import TripPlanner

/// The planner's tables in the service's PostgreSQL database, beside the dispatch store's and
/// migrated on their own (`planner-v1` in `schema_version`). Same tables as `SQLitePlannerStore`.
///
/// ```swift
/// let dispatch = try await PostgresDispatchStore(url: url)
/// let planner = try await PostgresPlannerStore(sharing: dispatch)
/// ```
final class PostgresPlannerStore: PlannerStore {
    let client: PostgresClient
    let logger: Logger

    /// Uses the dispatch store's connection pool and brings the planner's tables up to date.
    init(sharing store: PostgresDispatchStore) async throws {
        client = store.client
        logger = store.logger
        try await PostgresMigrator(client: client, logger: logger).migrate(Self.migrations)
    }

    static let migrations: [PostgresMigrator.Migration] = [
        ("planner-v1", [
            "CREATE TABLE planner_appointment (id BIGSERIAL PRIMARY KEY, owner BIGINT NOT NULL REFERENCES account(id), body TEXT NOT NULL)",
            "CREATE INDEX planner_appointment_owner ON planner_appointment(owner)",
            "CREATE TABLE planner_profile (owner BIGINT PRIMARY KEY REFERENCES account(id), body TEXT NOT NULL)",
            "CREATE TABLE planner_conditions (date TEXT PRIMARY KEY, body TEXT NOT NULL)",
            """
            CREATE TABLE planner_primary (owner BIGINT NOT NULL REFERENCES account(id), date TEXT NOT NULL,
                appointment BIGINT NOT NULL, PRIMARY KEY (owner, date, appointment))
            """,
            """
            CREATE TABLE planner_booking (id BIGSERIAL PRIMARY KEY, owner BIGINT NOT NULL REFERENCES account(id),
                date TEXT NOT NULL, body TEXT NOT NULL)
            """,
            "CREATE INDEX planner_booking_owner_date ON planner_booking(owner, date)",
        ]),
    ]

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func values<T: Decodable>(_ type: T.Type, _ bodies: [String]) throws -> [T] {
        try bodies.map { try JSONDecoder().decode(type, from: Data($0.utf8)) }
    }

    // MARK: - Appointments

    /// The id comes from the table's sequence first, so the body stored with it carries it.
    func insertAppointment(_ appointment: PlannerAppointment) async throws -> PlannerAppointment {
        let ids = try await client.query("SELECT nextval(pg_get_serial_sequence('planner_appointment', 'id'))",
                                         logger: logger).collect(Int.self)
        var stored = appointment
        stored.id = ids[0]
        let body = try Self.json(stored)
        try await client.query("INSERT INTO planner_appointment (id, owner, body) VALUES (\(stored.id), \(stored.owner), \(body))",
                               logger: logger)
        return stored
    }

    func appointment(id: Int) async throws -> PlannerAppointment? {
        let bodies = try await client.query("SELECT body FROM planner_appointment WHERE id = \(id)", logger: logger).collect(String.self)
        return try Self.values(PlannerAppointment.self, bodies).first
    }

    func appointments(owner: Int) async throws -> [PlannerAppointment] {
        let bodies = try await client.query("SELECT body FROM planner_appointment WHERE owner = \(owner) ORDER BY id",
                                            logger: logger).collect(String.self)
        return try Self.values(PlannerAppointment.self, bodies)
    }

    func updateAppointment(_ appointment: PlannerAppointment) async throws {
        let body = try Self.json(appointment)
        try await client.query("UPDATE planner_appointment SET body = \(body) WHERE id = \(appointment.id)", logger: logger)
    }

    func deleteAppointment(id: Int) async throws {
        try await client.query("DELETE FROM planner_appointment WHERE id = \(id)", logger: logger)
    }

    // MARK: - Preferences and conditions

    func profile(owner: Int) async throws -> PlannerProfile? {
        let bodies = try await client.query("SELECT body FROM planner_profile WHERE owner = \(owner)", logger: logger).collect(String.self)
        return try Self.values(PlannerProfile.self, bodies).first
    }

    func saveProfile(_ profile: PlannerProfile, owner: Int) async throws {
        let body = try Self.json(profile)
        try await client.query("""
            INSERT INTO planner_profile (owner, body) VALUES (\(owner), \(body))
            ON CONFLICT (owner) DO UPDATE SET body = excluded.body
            """, logger: logger)
    }

    func conditions(on date: CivilDate) async throws -> CityDayConditions? {
        let bodies = try await client.query("SELECT body FROM planner_conditions WHERE date = \(date.description)",
                                            logger: logger).collect(String.self)
        return try Self.values(CityDayConditions.self, bodies).first
    }

    func saveConditions(_ conditions: CityDayConditions, on date: CivilDate) async throws {
        let body = try Self.json(conditions)
        try await client.query("""
            INSERT INTO planner_conditions (date, body) VALUES (\(date.description), \(body))
            ON CONFLICT (date) DO UPDATE SET body = excluded.body
            """, logger: logger)
    }

    // MARK: - Primaries and bookings

    func primaries(owner: Int, on date: CivilDate) async throws -> Set<Int> {
        Set(try await client.query("SELECT appointment FROM planner_primary WHERE owner = \(owner) AND date = \(date.description)",
                                   logger: logger).collect(Int.self))
    }

    /// Replaces the owner's primaries of the day in one transaction.
    func savePrimaries(_ primaries: Set<Int>, owner: Int, on date: CivilDate) async throws {
        let day = date.description
        let chosen = primaries.sorted()
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM planner_primary WHERE owner = \(owner) AND date = \(day)", logger: logger)
            try await connection.query("""
                INSERT INTO planner_primary (owner, date, appointment)
                SELECT \(owner), \(day), unnest(\(chosen)::BIGINT[])
                """, logger: logger)
        }
    }

    func bookings(owner: Int, on date: CivilDate) async throws -> [PlannerBooking] {
        let bodies = try await client.query("""
            SELECT body FROM planner_booking WHERE owner = \(owner) AND date = \(date.description) ORDER BY id
            """, logger: logger).collect(String.self)
        return try Self.values(PlannerBooking.self, bodies)
    }

    func insertBooking(_ booking: PlannerBooking) async throws {
        let body = try Self.json(booking)
        try await client.query("INSERT INTO planner_booking (owner, date, body) VALUES (\(booking.owner), \(booking.date.description), \(body))",
                               logger: logger)
    }
}
