import Testing
@testable import DispatchService

/// `database:` in the service config: a SQLite path or a PostgreSQL URL, and the errors of a bad URL.
@Suite struct StoreLocationTests {
    static func config(database: String) -> ServiceConfig {
        ServiceConfig(scenario: "unused.yaml", database: database, admin: .init(email: "a@example.com", password: "long-enough"))
    }

    @Test func aPathIsSQLite() throws {
        #expect(try Self.config(database: "data/service.sqlite").storeLocation() == .sqlite(path: "data/service.sqlite"))
    }

    @Test func aPostgresURLNamesServerDatabaseAndSchema() throws {
        let location = try Self.config(database: "postgres://city:s%40cret@db.example:6543/dispatch?schema=city1").storeLocation()
        guard case .postgres(let url) = location else { Issue.record("not PostgreSQL: \(location)"); return }
        #expect(url.user == "city" && url.password == "s@cret" && url.host == "db.example" && url.port == 6543)
        #expect(url.database == "dispatch" && url.schema == "city1" && url.sslMode == .disable)
        #expect(url.redacted == "postgres://city:***@db.example:6543/dispatch?schema=city1")
    }

    @Test func portAndDatabaseHaveDefaultsAndASocketFolderReplacesTheHost() throws {
        let url = try PostgresURL("postgresql://city@/?host=/run/postgresql")
        #expect(url.port == 5432 && url.database == "city" && url.host == nil && url.socketDirectory == "/run/postgresql")
    }

    @Test(arguments: [
        "postgres://db.example/dispatch",             // no user
        "postgres://city@/dispatch",                  // no host
        "postgres://city@db.example:0/dispatch",      // bad port
        "postgres://city@db.example/a/b",             // not one database
        "postgres://city@db.example/d?schema=Bad-Name",
        "postgres://city@db.example/d?sslmode=always",
        "postgres://city@db.example/d?timeout=3",
    ])
    func aBadURLIsAConfigErrorNamingTheKey(_ database: String) {
        #expect {
            try Self.config(database: database).validate()
        } throws: { error in
            "\(error)".hasPrefix("service config: database: bad PostgreSQL URL: ")
        }
    }

    @Test func theServeLineHidesThePassword() {
        #expect(Self.config(database: "postgres://city:secret@db.example/d").redactedDatabase == "postgres://city:***@db.example:5432/d")
        #expect(Self.config(database: "service.sqlite").redactedDatabase == "service.sqlite")
    }

    /// Opening a store on a server that is not there fails at once (the pool alone would retry for ever).
    @Test func anUnreachableServerFailsTheOpen() async throws {
        await #expect(throws: PostgresUnavailable.self) {
            _ = try await PostgresDispatchStore(url: try PostgresURL("postgres://nobody:secret@127.0.0.1:1/none"))
        }
    }
}
