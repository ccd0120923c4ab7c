import Foundation
import Yams

/// Reads a service config file strictly and applies the environment on top of it.
///
/// Order, each step's errors naming the file, the key and (when known) the line:
/// 1. the YAML, every key checked against `schema` (an unknown key is an error listing the known ones;
///    a scenario file given by mistake is recognised and named as such);
/// 2. the environment: each key `a.b_c` can be set by `CITYSIM_A_B_C` (the value is read as YAML
///    scalar text), and a key set there replaces the file's key and the file's `*_file` variant;
///    OpenTelemetry's standard variables (`openTelemetryVariables`: `OTEL_EXPORTER_OTLP_ENDPOINT`,
///    `OTEL_SERVICE_NAME`, …) set their `tracing.` keys unless the keys' `CITYSIM_` variables do;
/// 3. the secrets: `database_file`, `admin.password_file` and `tracing.otlp_headers_file` /
///    `otlp_traces_headers_file` (exporter tokens) name a file whose content (without the
///    trailing newline) is the value, as container secrets are mounted; giving both a key and its
///    `_file` variant at the same level is an error;
/// 4. decoding into `ServiceConfig`, type errors naming the key.
///
/// Invariant: the result holds no key outside `schema` and every override came from a key of `schema`; an error
/// about a key the environment set names the variable (`ConfigError.variable`).
struct ServiceConfigReader {
    /// The keys a service config may have.
    indirect enum Keys {
        case value
        case mapping(KeyValuePairs<String, Keys>)

        var children: KeyValuePairs<String, Keys>? {
            if case .mapping(let children) = self { children } else { nil }
        }
    }

    static let schema: Keys = .mapping([
        "scenario": .value, "database": .value, "database_file": .value, "host": .value, "port": .value,
        "admin": .mapping(["email": .value, "password": .value, "password_file": .value]),
        "token_lifetime_s": .value, "bcrypt_cost": .value,
        "planner": .mapping(["gtfs": .value, "origin": .mapping(["lat": .value, "lon": .value]), "transfer_s": .value]),
        "clock_speed": .value, "login_burst_per_address": .value, "archive_after_s": .value,
        "archive_retain_days": .value, "commit_delay_ms": .value, "ride_fast_path": .value,
        "log": .mapping(["level": .value, "format": .value, "requests": .value]),
        "checkpoint": .mapping(["every_commands": .value, "every_s": .value]),
        "tracing": .mapping(["otlp_endpoint": .value, "service_name": .value, "batch_size": .value,
                             "flush_interval_ms": .value, "queue_limit": .value, "otlp_traces_endpoint": .value,
                             "otlp_headers": .value, "otlp_traces_headers": .value, "otlp_headers_file": .value,
                             "otlp_traces_headers_file": .value, "otlp_timeout_ms": .value,
                             "otlp_compression": .value, "sampler": .value, "sampler_arg": .value]),
    ])

    /// OpenTelemetry's standard variables (its SDK and OTLP exporter configuration), read like `CITYSIM_` ones, in
    /// this order: where two set one key the later wins (the traces-specific timeout over the general one), and the
    /// `CITYSIM_` variable of the key wins over both.
    static let openTelemetryVariables: [(variable: String, path: [String])] = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", ["tracing", "otlp_endpoint"]),
        ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", ["tracing", "otlp_traces_endpoint"]),
        ("OTEL_EXPORTER_OTLP_HEADERS", ["tracing", "otlp_headers"]),
        ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", ["tracing", "otlp_traces_headers"]),
        ("OTEL_EXPORTER_OTLP_TIMEOUT", ["tracing", "otlp_timeout_ms"]),
        ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", ["tracing", "otlp_timeout_ms"]),
        ("OTEL_EXPORTER_OTLP_COMPRESSION", ["tracing", "otlp_compression"]),
        ("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", ["tracing", "otlp_compression"]),
        ("OTEL_TRACES_SAMPLER", ["tracing", "sampler"]),
        ("OTEL_TRACES_SAMPLER_ARG", ["tracing", "sampler_arg"]),
        ("OTEL_SERVICE_NAME", ["tracing", "service_name"]),
    ]

    /// Keys that take their value from a file: `KEY_file` beside `KEY`.
    static let secretKeys: [[String]] = [["database"], ["admin", "password"], ["tracing", "otlp_headers"],
                                         ["tracing", "otlp_traces_headers"]]

    /// The environment variable of a key path: `CITYSIM_` and the path in capitals, `.` → `_`.
    static func variable(_ path: [String]) -> String {
        "CITYSIM_" + path.joined(separator: "_").uppercased()
    }

    /// Every key path that holds a value, with its variable: `port` → `CITYSIM_PORT`.
    static var overridable: [(path: [String], variable: String)] {
        func walk(_ keys: Keys, _ prefix: [String]) -> [[String]] {
            guard let children = keys.children else { return [prefix] }
            return children.flatMap { walk($0.value, prefix + [$0.key]) }
        }
        return walk(schema, []).map { ($0, variable($0)) }
    }

    let file: String
    let environment: [String: String]

    func error(_ path: [String], _ reason: String, at node: Node? = nil) -> ConfigError {
        let key = path.joined(separator: ".")
        var error = ConfigError(message: key.isEmpty ? reason : "\(key): \(reason)", file: file, line: node?.mark?.line)
        error.variable = variable(setting: path)
        return error
    }

    /// The environment variable whose value the key at `path` has, if one set it (the last applied, as `applyEnvironment` does).
    func variable(setting path: [String]) -> String? {
        let standard = Self.openTelemetryVariables.map { (path: $0.path, variable: $0.variable) }
        return (standard + Self.overridable).last { $0.path == path && environment[$0.variable] != nil }?.variable
    }

    /// The config in `text`, before paths are made absolute and values validated.
    func read(_ text: String) throws -> ServiceConfig {
        let parsed: Node?
        do { parsed = try Yams.compose(yaml: text) } catch let yaml as YamlError {
            throw ConfigError(message: "not valid YAML: \(yaml)", file: file, line: nil)
        }
        guard case .mapping(var root)? = parsed ?? .mapping([:]) else {
            throw error([], "expected a mapping of keys (scenario, database, host, port, admin, …)", at: parsed)
        }
        let scenarioKeys: Set = ["city", "demand", "fleet", "dispatch", "drivers", "duration_hours"]
        if root.keys.contains(where: { scenarioKeys.contains($0.string ?? "") }),
           !root.keys.contains(where: { $0.string == "database" || $0.string == "admin" }) {
            throw error([], "this is a scenario (for citysim run), not a service config; "
                        + "a service config names a scenario: `scenario: FILE.yaml`, with database, host, port and admin")
        }
        try check(.mapping(root), against: Self.schema, path: [])
        try applyEnvironment(to: &root)
        try resolveSecrets(in: &root)
        do {
            return try YAMLDecoder().decode(ServiceConfig.self, from: .mapping(root), userInfo: [:])
        } catch let decoding as DecodingError {
            throw describe(decoding, in: .mapping(root))
        }
    }

    /// Every key of `node` must be in `keys`.
    private func check(_ node: Node, against keys: Keys, path: [String]) throws {
        guard let children = keys.children else { return }
        guard case .mapping(let mapping) = node else {
            if case .scalar(let scalar) = node, scalar.string == "" || scalar.string == "~" { return }  // null
            throw error(path, "expected a mapping", at: node)
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? "\(keyNode)"
            guard let known = children.first(where: { $0.key == key }) else {
                throw error(path + [key], "unknown key '\(key)' (known: \(children.map(\.key).joined(separator: ", ")))",
                            at: keyNode)
            }
            try check(value, against: known.value, path: path + [key])
        }
    }

    /// Sets every key whose variable is in the environment; a key set there replaces its `_file` variant and vice versa.
    private func applyEnvironment(to root: inout Node.Mapping) throws {
        let standard = Self.openTelemetryVariables.map { (path: $0.path, variable: $0.variable) }
        for (path, variable) in standard + Self.overridable {
            guard let value = environment[variable] else { continue }
            let last = path[path.count - 1]
            let sibling = last.hasSuffix("_file") ? String(last.dropLast(5)) : last + "_file"
            try set(&root, path: path, sibling: sibling, to: Node(value))
        }
    }

    private func set(_ mapping: inout Node.Mapping, path: [String], sibling: String, to value: Node) throws {
        if path.count == 1 {
            mapping[sibling] = nil
            mapping[path[0]] = value
            return
        }
        var child: Node.Mapping
        switch mapping[path[0]] {
        case .mapping(let found)?: child = found
        case nil, .scalar?: child = Node.Mapping([])  // absent or null
        default: throw error([path[0]], "expected a mapping")
        }
        try set(&child, path: Array(path.dropFirst()), sibling: sibling, to: value)
        mapping[path[0]] = .mapping(child)
    }

    /// Replaces each `KEY_file` by `KEY` with the file's content.
    private func resolveSecrets(in root: inout Node.Mapping) throws {
        for path in Self.secretKeys {
            var parents: [Node.Mapping] = [root]
            for key in path.dropLast() {
                guard case .mapping(let next)? = parents.last![key] else { break }
                parents.append(next)
            }
            guard parents.count == path.count else { continue }
            var parent = parents.removeLast()
            let key = path[path.count - 1], fileKey = key + "_file"
            guard let named = parent[fileKey] else { continue }
            let keyPath = path.dropLast() + [fileKey]
            if parent[key] != nil {
                throw error(Array(keyPath), "give either \(key) or \(fileKey), not both", at: named)
            }
            guard let secretPath = named.string, !secretPath.isEmpty else {
                throw error(Array(keyPath), "expected a file path", at: named)
            }
            let secret: String
            do { secret = try String(contentsOfFile: secretPath, encoding: .utf8) } catch {
                throw self.error(Array(keyPath), "cannot read \(secretPath): \(error.localizedDescription)", at: named)
            }
            parent[fileKey] = nil
            var value = Substring(secret)
            while value.last == "\n" || value.last == "\r" { value = value.dropLast() }
            parent[key] = Node(String(value))
            // Write the changed mappings back up the path.
            var child = parent
            for (depth, var above) in parents.enumerated().reversed() {
                above[path[depth]] = .mapping(child)
                child = above
            }
            root = child
        }
    }

    /// A decoding error as a config error naming the key.
    private func describe(_ decoding: DecodingError, in root: Node) -> ConfigError {
        func keys(_ path: [any CodingKey]) -> [String] { path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } }
        func node(at path: [String]) -> Node? {
            path.reduce(Optional(root)) { node, key in node?.mapping?[key] }
        }
        if case .dataCorrupted(let context) = decoding, let invalid = context.underlyingError as? InvalidConfigValue {
            let path = keys(context.codingPath)
            return error(path, invalid.reason, at: node(at: path))
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            return error(keys(context.codingPath) + [key.stringValue], "missing (required)")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = keys(context.codingPath)
            let found = node(at: path)
            let value = found?.string.map { " (got '\($0)')" } ?? ""
            return error(path, "expected \(Self.expectation(path))\(value)", at: found)
        @unknown default:
            return ConfigError(message: "\(decoding)", file: file, line: nil)
        }
    }

    /// What a key holds, for messages.
    static func expectation(_ path: [String]) -> String {
        switch path.last ?? "" {
        case "port", "bcrypt_cost", "login_burst_per_address", "every_commands", "batch_size", "flush_interval_ms",
             "queue_limit", "otlp_timeout_ms": "an integer"
        case "token_lifetime_s", "clock_speed", "transfer_s", "lat", "lon", "archive_after_s", "archive_retain_days", "every_s",
             "sampler_arg", "commit_delay_ms":
            "a number"
        case "level": "one of \(LogSettings.Level.allCases.map(\.rawValue).joined(separator: ", "))"
        case "requests": "a log level (\(LogSettings.Level.allCases.map(\.rawValue).joined(separator: ", ")))"
        case "format": "text or json"
        case "ride_fast_path": "true or false"
        case "otlp_compression": "gzip or none"
        case "sampler": "one of \(TraceSampler.Name.allCases.map(\.rawValue).joined(separator: ", "))"
        case "otlp_headers", "otlp_traces_headers": "a header list key1=value1,key2=value2 (values %-encoded)"
        default: "a value of the right kind"
        }
    }
}

/// A value of the right kind that is still wrong, such as a malformed header list: a config type's decoder throws it
/// as a `DecodingError`'s underlying error, and the reader reports its reason for the key (and no "got '…'", as the
/// value may be a secret).
struct InvalidConfigValue: Error {
    let reason: String
}
