import Foundation
import GRDB
import PostgresNIO
import Testing
@testable import DispatchService

/// A storage engine the store contract runs against.
///
/// PostgreSQL runs when `CITYSIM_TEST_POSTGRES_URL` names a database the tests may create schemas
/// in (`.ci/postgres.sh` starts one); each test gets a schema of its own, dropped at its end.
enum StoreEngine: String, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// The engines every environment has.
    static let embedded: [StoreEngine] = [.memory, .sqlite]
    static let postgresURL = ProcessInfo.processInfo.environment["CITYSIM_TEST_POSTGRES_URL"]
    static let postgresSkipReason: Comment = "CITYSIM_TEST_POSTGRES_URL is not set (.ci/postgres.sh starts a server and sets it)"

    /// Runs `body` with a fresh place for this engine's data, then removes it (also when `body` throws).
    func withSite<T>(_ body: (StoreSite) async throws -> T) async throws -> T {
        let site = try StoreSite(engine: self)
        do {
            let result = try await body(site)
            try await site.remove()
            return result
        } catch {
            try? await site.remove()
            throw error
        }
    }
}

/// One test's data for one engine: a SQLite file, a PostgreSQL schema, or one in-memory store.
/// Each `open()` is a new store on the same data, as after a restart (memory: the same instance).
final class StoreSite: @unchecked Sendable {
    let engine: StoreEngine
    private let folder: TemporaryFolder
    private let memory = InMemoryDispatchStore()
    private let memoryPlanner = InMemoryPlannerStore()
    private let postgresURL: PostgresURL?
    private var opened: [PostgresDispatchStore] = []

    init(engine: StoreEngine) throws {
        self.engine = engine
        folder = try TemporaryFolder()
        if engine == .postgres {
            var url = try PostgresURL(try #require(StoreEngine.postgresURL))
            url.schema = "citysim_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            postgresURL = url
        } else {
            postgresURL = nil
        }
    }

    /// A store on this site's data.
    func open() async throws -> any DispatchStore {
        switch engine {
        case .memory: return memory
        case .sqlite: return try SQLiteDispatchStore(path: folder.path("service.sqlite"))
        case .postgres:
            let store = try await PostgresDispatchStore(url: try #require(postgresURL))
            opened.append(store)
            return store
        }
    }

    /// The schema an older build left: SQLite's file, or a PostgreSQL store that ran only the older migrations.
    enum OldSchema {
        case sqlite(DatabaseQueue)
        case postgres(PostgresDispatchStore)
    }

    /// Runs `body` on this site's data with the schema migrated only through `version` (SQLite, PostgreSQL),
    /// as a build of that version left it; the next `open()` brings it up to date.
    func withSchema(through version: String, _ body: (OldSchema) async throws -> Void) async throws {
        switch engine {
        case .memory: Issue.record("the in-memory store has no schema")
        case .sqlite:
            let queue = try DatabaseQueue(path: folder.path("service.sqlite"))
            try SQLiteDispatchStore.migrator.migrate(queue, upTo: version)
            try await body(.sqlite(queue))
            try queue.close()
        case .postgres:
            let end = try #require(PostgresDispatchStore.migrations.firstIndex { $0.name == version })
            let store = try await PostgresDispatchStore(url: try #require(postgresURL),
                                                        migrations: Array(PostgresDispatchStore.migrations[...end]))
            opened.append(store)
            try await body(.postgres(store))
        }
    }

    /// The planner's store beside `store`, as the service opens it.
    func planner(beside store: any DispatchStore) async throws -> any PlannerStore {
        switch store {
        case let sqlite as SQLiteDispatchStore: return try SQLitePlannerStore(sharing: sqlite)
        case let postgres as PostgresDispatchStore: return try await PostgresPlannerStore(sharing: postgres)
        default: return memoryPlanner
        }
    }

    /// Drops the PostgreSQL schema and closes the pools; the folder goes with the site.
    func remove() async throws {
        if let last = opened.last, let schema = postgresURL?.schema {
            try await last.client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA \(schema) CASCADE"))
        }
        for store in opened { await store.close() }
        opened = []
    }
}
