import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL location given as a URL, the form `database:` takes in the service config.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE&host=SOCKET_DIR]`
/// (`postgresql://` too). The port defaults to 5432 and the database to the user's name.
/// `schema` puts the service's tables in that schema (created when missing; default `public`);
/// `sslmode` is `disable` (default), `prefer` or `require`; `host=/dir` connects through the
/// unix socket `/dir/.s.PGSQL.PORT` instead of TCP, as libpq does.
///
/// ```swift
/// let url = try PostgresURL("postgres://citysim:secret@127.0.0.1:5432/citysim?schema=city1")
/// url.redacted   // "postgres://citysim:***@127.0.0.1:5432/citysim?schema=city1"
/// ```
public struct PostgresURL: Sendable, Equatable {
    public var user: String
    public var password: String?
    /// TCP host; nil when `socketDirectory` is set.
    public var host: String?
    public var port: Int
    /// Folder of the server's unix socket (`?host=/dir`).
    public var socketDirectory: String?
    public var database: String
    /// Schema of the tables; nil = the server's default search path (`public`).
    public var schema: String?
    public var sslMode: SSLMode

    public enum SSLMode: String, Sendable, Equatable { case disable, prefer, require }

    /// Whether `text` is meant as a PostgreSQL URL (rather than a SQLite file path).
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a URL.
    /// - Throws: `PostgresURL.Invalid` saying which part is wrong (the password is never repeated).
    public init(_ text: String) throws {
        guard Self.isPostgres(text) else { throw Invalid("it must start with postgres:// or postgresql://") }
        guard let parts = URLComponents(string: text) else { throw Invalid("it is not a well-formed URL") }
        guard let user = parts.user, !user.isEmpty else { throw Invalid("it names no user (postgres://USER@HOST/DATABASE)") }
        self.user = user
        password = parts.password
        port = parts.port ?? 5432
        guard (1...65_535).contains(port) else { throw Invalid("port must be 1–65535") }
        let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        guard !path.contains("/") else { throw Invalid("the path must be one database name") }
        database = path.isEmpty ? user : path
        host = parts.host.flatMap { $0.isEmpty ? nil : $0 }
        sslMode = .disable
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "schema":
                guard Self.isIdentifier(value) else {
                    throw Invalid("schema must be a lower-case identifier (letters, digits, _), got \"\(value)\"")
                }
                schema = value
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else { throw Invalid("sslmode must be disable, prefer or require") }
                sslMode = mode
            case "host":
                guard value.hasPrefix("/") else { throw Invalid("host= must be the absolute folder of a unix socket") }
                socketDirectory = value
            default:
                throw Invalid("unknown parameter \"\(item.name)\" (known: schema, sslmode, host)")
            }
        }
        if socketDirectory != nil { host = nil }
        guard host != nil || socketDirectory != nil else { throw Invalid("it names no host (postgres://USER@HOST/DATABASE)") }
    }

    /// The URL with the password replaced by `***`, for logs.
    public var redacted: String {
        var parts = URLComponents()
        parts.scheme = "postgres"
        parts.user = user
        parts.password = password == nil ? nil : "***"
        parts.host = host ?? ""
        parts.port = port
        parts.path = "/" + database
        var items: [URLQueryItem] = []
        if let schema { items.append(URLQueryItem(name: "schema", value: schema)) }
        if sslMode != .disable { items.append(URLQueryItem(name: "sslmode", value: sslMode.rawValue)) }
        if let socketDirectory { items.append(URLQueryItem(name: "host", value: socketDirectory)) }
        parts.queryItems = items.isEmpty ? nil : items
        return parts.string ?? "postgres://"
    }

    /// The client configuration: TCP or unix socket, TLS per `sslmode`, `search_path` per `schema`.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user,
                                  password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch sslMode {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password,
                                  database: database, tls: tls)
        }
        if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
        return configuration
    }

    /// The same place for one connection of its own (the store's check at open).
    var connectionConfiguration: PostgresConnection.Configuration {
        get throws {
            var configuration: PostgresConnection.Configuration
            if let socketDirectory {
                configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user,
                                      password: password, database: database)
            } else {
                let tls: PostgresConnection.Configuration.TLS
                switch sslMode {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
                configuration = .init(host: host ?? "localhost", port: port, username: user, password: password,
                                      database: database, tls: tls)
            }
            if let schema { configuration.options.additionalStartupParameters = [("search_path", schema)] }
            return configuration
        }
    }

    /// `[a-z_][a-z0-9_]*`, at most 63 bytes: a schema name that needs no quoting.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, first == UInt8(ascii: "_") || (97...122).contains(first)
        else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (97...122).contains($0) || (48...57).contains($0) }
    }

    /// Why a PostgreSQL URL was refused.
    public struct Invalid: Error, CustomStringConvertible {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
        public var description: String { "bad PostgreSQL URL: \(reason)" }
    }
}
