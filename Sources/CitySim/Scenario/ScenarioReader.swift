import Foundation

/// The keys a scenario mapping may hold; `CodingKeys` enums of the schema types conform.
protocol ScenarioKeys: CodingKey, CaseIterable, RawRepresentable where RawValue == String {}

/// A numeric range a value must lie in, printed in error messages (`>= 0`, `in [0, 1]`).
struct Bounds {
    var lower: Double?
    var lowerInclusive = true
    var upper: Double?
    var upperInclusive = true

    static let any = Bounds()
    static let nonNegative = Bounds(lower: 0)
    static let positive = Bounds(lower: 0, lowerInclusive: false)
    static let probability = Bounds(lower: 0, upper: 1)
    static func atLeast(_ value: Double) -> Bounds { Bounds(lower: value) }
    static func closed(_ low: Double, _ high: Double) -> Bounds { Bounds(lower: low, upper: high) }

    func contains(_ value: Double) -> Bool {
        if let lower, lowerInclusive ? value < lower : value <= lower { return false }
        if let upper, upperInclusive ? value > upper : value >= upper { return false }
        return true
    }

    var description: String {
        switch (lower, upper) {
        case (nil, nil): return ""
        case (let low?, nil): return lowerInclusive ? ">= \(format(low))" : "> \(format(low))"
        case (nil, let high?): return upperInclusive ? "<= \(format(high))" : "< \(format(high))"
        case (let low?, let high?):
            return "in \(lowerInclusive ? "[" : "(")\(format(low)), \(format(high))\(upperInclusive ? "]" : ")")"
        }
    }
}

/// Formats a number for messages: integers without a decimal point.
func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return String(value)
}

/// Reads one value of the scenario tree strictly, knowing its key path for errors.
struct ScenarioReader {
    let file: String
    let path: String
    let node: ScenarioNode

    /// An error located at this value.
    func error(_ reason: String) -> ScenarioError {
        var reason = reason
        if case .override(let text) = node.origin { reason = "override '\(text)': \(reason)" }
        return ScenarioError(file: file, keyPath: path, reason: reason, line: node.line)
    }

    var isNull: Bool {
        if case .null = node.value { return true }
        return false
    }

    // MARK: Structure

    func mapping<Key: ScenarioKeys>(_: Key.Type) throws(ScenarioError) -> MappingReader<Key> {
        try MappingReader(self)
    }

    func sequence(minCount: Int = 0) throws(ScenarioError) -> [ScenarioReader] {
        guard case .sequence(let elements) = node.value else {
            throw error("expected a sequence, got \(node.kindName)")
        }
        guard elements.count >= minCount else {
            throw error("expected at least \(minCount) element\(minCount == 1 ? "" : "s"), got \(elements.count)")
        }
        return elements.enumerated().map { ScenarioReader(file: file, path: "\(path)[\($0.offset)]", node: $0.element) }
    }

    // MARK: Scalars

    private func plainScalar(_ expected: String) throws(ScenarioError) -> String {
        switch node.value {
        case .scalar(let text, quoted: false): return text
        case .scalar(let text, quoted: true): throw error("expected \(expected), got the string \"\(text)\"")
        default: throw error("expected \(expected), got \(node.kindName)")
        }
    }

    func string() throws(ScenarioError) -> String {
        guard case .scalar(let text, _) = node.value else { throw error("expected a string, got \(node.kindName)") }
        return text
    }

    func double(_ bounds: Bounds) throws(ScenarioError) -> Double {
        let expected = "a number" + (bounds.description.isEmpty ? "" : " \(bounds.description)")
        let text = try plainScalar(expected)
        guard let value = Double(text.replacingOccurrences(of: "_", with: "")), value.isFinite,
              !text.lowercased().hasPrefix("0x"), !text.lowercased().contains("nan")
        else { throw error("expected \(expected), got '\(text)'") }
        guard bounds.contains(value) else { throw error("expected \(expected), got \(text)") }
        return value
    }

    func int(_ bounds: Bounds) throws(ScenarioError) -> Int {
        let expected = "an integer" + (bounds.description.isEmpty ? "" : " \(bounds.description)")
        let text = try plainScalar(expected)
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw error("expected \(expected), got '\(text)'")
        }
        guard bounds.contains(Double(value)) else { throw error("expected \(expected), got \(text)") }
        return value
    }

    func uint64() throws(ScenarioError) -> UInt64 {
        let text = try plainScalar("an integer in [0, \(UInt64.max)]")
        guard let value = UInt64(text.replacingOccurrences(of: "_", with: "")) else {
            throw error("expected an integer in [0, \(UInt64.max)], got '\(text)'")
        }
        return value
    }

    func bool() throws(ScenarioError) -> Bool {
        let text = try plainScalar("a boolean (true or false)")
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: throw error("expected a boolean (true or false), got '\(text)'")
        }
    }

    /// One of the raw values of `Choice`; an unknown name lists the known ones.
    func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws(ScenarioError) -> Choice
        where Choice.RawValue == String
    {
        let known = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .scalar(let text, _) = node.value else {
            throw error("expected one of \(known), got \(node.kindName)")
        }
        guard let value = Choice(rawValue: text) else { throw error("unknown value '\(text)' (known: \(known))") }
        return value
    }

    /// A sequence of exactly `count` numbers, each within `bounds`.
    func doubles(count: Int, _ bounds: Bounds) throws(ScenarioError) -> [Double] {
        let elements = try sequence()
        guard elements.count == count else {
            throw error("expected a sequence of exactly \(count) numbers, got \(elements.count)")
        }
        var values: [Double] = []
        for element in elements { values.append(try element.double(bounds)) }
        return values
    }
}

/// Reads a mapping whose keys must all be cases of `Key`.
struct MappingReader<Key: ScenarioKeys> {
    let reader: ScenarioReader
    private let entries: [String: ScenarioNode]

    init(_ reader: ScenarioReader) throws(ScenarioError) {
        self.reader = reader
        let list: [ScenarioNode.Entry]
        switch reader.node.value {
        case .mapping(let found): list = found
        case .null: list = []
        default: throw reader.error("expected a mapping, got \(reader.node.kindName)")
        }
        let known = Key.allCases.map(\.stringValue)
        var entries: [String: ScenarioNode] = [:]
        for entry in list {
            guard known.contains(entry.key) else {
                let at = ScenarioReader(file: reader.file, path: Self.join(reader.path, entry.key),
                                        node: ScenarioNode(value: .null, origin: entry.keyOrigin))
                throw at.error("unknown key '\(entry.key)' (known: \(known.joined(separator: ", ")))")
            }
            entries[entry.key] = entry.node
        }
        self.entries = entries
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The value under `key`, or nil when it is absent or null.
    func child(_ key: Key) -> ScenarioReader? {
        guard let node = entries[key.stringValue] else { return nil }
        if case .null = node.value { return nil }
        return ScenarioReader(file: reader.file, path: Self.join(reader.path, key.stringValue), node: node)
    }

    func has(_ key: Key) -> Bool { child(key) != nil }

    /// The optional section under `key`; an empty mapping (all defaults) when absent.
    func section(_ key: Key) -> ScenarioReader {
        child(key) ?? ScenarioReader(file: reader.file, path: Self.join(reader.path, key.stringValue),
                                     node: ScenarioNode(value: .mapping([]), origin: reader.node.origin))
    }

    /// An error located at `key` (at the mapping itself when the key is absent).
    func error(at key: Key, _ reason: String) -> ScenarioError {
        if let child = child(key) { return child.error(reason) }
        var error = reader.error(reason)
        error.keyPath = Self.join(reader.path, key.stringValue)
        return error
    }

    func required<T>(_ key: Key, _ read: (ScenarioReader) throws(ScenarioError) -> T) throws(ScenarioError) -> T {
        guard let child = child(key) else { throw error(at: key, "missing required key '\(key.stringValue)'") }
        return try read(child)
    }

    func optional<T>(_ key: Key, default value: T, _ read: (ScenarioReader) throws(ScenarioError) -> T)
        throws(ScenarioError) -> T
    {
        guard let child = child(key) else { return value }
        return try read(child)
    }

    func optional<T>(_ key: Key, _ read: (ScenarioReader) throws(ScenarioError) -> T) throws(ScenarioError) -> T? {
        guard let child = child(key) else { return nil }
        return try read(child)
    }

    // MARK: Shorthands

    func double(_ key: Key, default value: Double? = nil, _ bounds: Bounds) throws(ScenarioError) -> Double {
        if let value { return try optional(key, default: value) { (r) throws(ScenarioError) in try r.double(bounds) } }
        return try required(key) { (r) throws(ScenarioError) in try r.double(bounds) }
    }

    func int(_ key: Key, default value: Int? = nil, _ bounds: Bounds) throws(ScenarioError) -> Int {
        if let value { return try optional(key, default: value) { (r) throws(ScenarioError) in try r.int(bounds) } }
        return try required(key) { (r) throws(ScenarioError) in try r.int(bounds) }
    }

    func string(_ key: Key, default value: String? = nil) throws(ScenarioError) -> String {
        if let value { return try optional(key, default: value) { (r) throws(ScenarioError) in try r.string() } }
        return try required(key) { (r) throws(ScenarioError) in try r.string() }
    }

    func bool(_ key: Key, default value: Bool) throws(ScenarioError) -> Bool {
        try optional(key, default: value) { (r) throws(ScenarioError) in try r.bool() }
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_ key: Key, default value: Choice) throws(ScenarioError)
        -> Choice where Choice.RawValue == String
    {
        try optional(key, default: value) { (r) throws(ScenarioError) in try r.choice(Choice.self) }
    }

    func hourly(_ key: Key, _ bounds: Bounds) throws(ScenarioError) -> [Double] {
        try optional(key, default: Array(repeating: 1, count: 24)) { (r) throws(ScenarioError) in
            try r.doubles(count: 24, bounds)
        }
    }
}
