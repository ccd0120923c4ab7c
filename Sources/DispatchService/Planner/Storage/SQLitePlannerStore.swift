import Foundation
import GRDB
import TripPlanner

/// The planner's tables in the service's SQLite database, migrated on their own (`planner-v1`)
/// so the dispatch store's schema stays untouched.
///
/// Tables: `planner_appointment` (id, owner, JSON body), `planner_profile` (owner, JSON body),
/// `planner_conditions` (date, JSON body), `planner_primary` (owner, date, appointment),
/// `planner_booking` (owner, date, JSON body).
///
/// ```swift
/// let dispatch = try SQLiteDispatchStore(path: "service.sqlite")
/// let planner = try SQLitePlannerStore(sharing: dispatch)
/// ```
final class SQLitePlannerStore: PlannerStore {
    let database: DatabasePool

    /// Uses the dispatch store's database pool and brings the planner's tables up to date.
    init(sharing store: SQLiteDispatchStore) throws {
        database = store.database
        try Self.migrator.migrate(database)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("planner-v1") { db in
            try db.execute(sql: """
                CREATE TABLE planner_appointment (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner INTEGER NOT NULL REFERENCES account(id), body TEXT NOT NULL);
                CREATE INDEX planner_appointment_owner ON planner_appointment(owner);
                CREATE TABLE planner_profile (owner INTEGER PRIMARY KEY REFERENCES account(id), body TEXT NOT NULL);
                CREATE TABLE planner_conditions (date TEXT PRIMARY KEY, body TEXT NOT NULL);
                CREATE TABLE planner_primary (owner INTEGER NOT NULL REFERENCES account(id), date TEXT NOT NULL,
                    appointment INTEGER NOT NULL, PRIMARY KEY (owner, date, appointment));
                CREATE TABLE planner_booking (id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner INTEGER NOT NULL REFERENCES account(id), date TEXT NOT NULL, body TEXT NOT NULL);
                CREATE INDEX planner_booking_owner_date ON planner_booking(owner, date);
                """)
        }
        return migrator
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    private static func value<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    // MARK: - Appointments

    func insertAppointment(_ appointment: PlannerAppointment) async throws -> PlannerAppointment {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO planner_appointment (owner, body) VALUES (?, '')", arguments: [appointment.owner])
            var stored = appointment
            stored.id = Int(db.lastInsertedRowID)
            try db.execute(sql: "UPDATE planner_appointment SET body = ? WHERE id = ?", arguments: [try Self.json(stored), stored.id])
            return stored
        }
    }

    func appointment(id: Int) async throws -> PlannerAppointment? {
        let body = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM planner_appointment WHERE id = ?", arguments: [id])
        }
        return try body.map { try Self.value(PlannerAppointment.self, $0) }
    }

    func appointments(owner: Int) async throws -> [PlannerAppointment] {
        let bodies = try await database.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM planner_appointment WHERE owner = ? ORDER BY id", arguments: [owner])
        }
        return try bodies.map { try Self.value(PlannerAppointment.self, $0) }
    }

    func updateAppointment(_ appointment: PlannerAppointment) async throws {
        let body = try Self.json(appointment)
        try await database.write { db in
            try db.execute(sql: "UPDATE planner_appointment SET body = ? WHERE id = ?", arguments: [body, appointment.id])
        }
    }

    func deleteAppointment(id: Int) async throws {
        try await database.write { db in try db.execute(sql: "DELETE FROM planner_appointment WHERE id = ?", arguments: [id]) }
    }

    // MARK: - Preferences and conditions

    func profile(owner: Int) async throws -> PlannerProfile? {
        let body = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM planner_profile WHERE owner = ?", arguments: [owner])
        }
        return try body.map { try Self.value(PlannerProfile.self, $0) }
    }

    func saveProfile(_ profile: PlannerProfile, owner: Int) async throws {
        let body = try Self.json(profile)
        try await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO planner_profile (owner, body) VALUES (?, ?)", arguments: [owner, body])
        }
    }

    func conditions(on date: CivilDate) async throws -> CityDayConditions? {
        let body = try await database.read { db in
            try String.fetchOne(db, sql: "SELECT body FROM planner_conditions WHERE date = ?", arguments: [date.description])
        }
        return try body.map { try Self.value(CityDayConditions.self, $0) }
    }

    func saveConditions(_ conditions: CityDayConditions, on date: CivilDate) async throws {
        let body = try Self.json(conditions)
        try await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO planner_conditions (date, body) VALUES (?, ?)",
                           arguments: [date.description, body])
        }
    }

    // MARK: - Primaries and bookings

    func primaries(owner: Int, on date: CivilDate) async throws -> Set<Int> {
        Set(try await database.read { db in
            try Int.fetchAll(db, sql: "SELECT appointment FROM planner_primary WHERE owner = ? AND date = ?",
                             arguments: [owner, date.description])
        })
    }

    func savePrimaries(_ primaries: Set<Int>, owner: Int, on date: CivilDate) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM planner_primary WHERE owner = ? AND date = ?", arguments: [owner, date.description])
            for appointment in primaries.sorted() {
                try db.execute(sql: "INSERT INTO planner_primary (owner, date, appointment) VALUES (?, ?, ?)",
                               arguments: [owner, date.description, appointment])
            }
        }
    }

    func bookings(owner: Int, on date: CivilDate) async throws -> [PlannerBooking] {
        let bodies = try await database.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM planner_booking WHERE owner = ? AND date = ? ORDER BY id",
                                arguments: [owner, date.description])
        }
        return try bodies.map { try Self.value(PlannerBooking.self, $0) }
    }

    func insertBooking(_ booking: PlannerBooking) async throws {
        let body = try Self.json(booking)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO planner_booking (owner, date, body) VALUES (?, ?, ?)",
                           arguments: [booking.owner, booking.date.description, body])
        }
    }
}
