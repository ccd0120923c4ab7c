import Foundation

/// `summary.json`'s bytes, exactly as `ResultWriter.json` (Foundation's `JSONEncoder`: pretty printed, keys sorted
/// and in snake_case, slashes unescaped) writes them, built without `JSONEncoder`'s runtime casts. `JSONEncoder`
/// asks every value it encodes whether it is one of its special types (`as?` a dozen protocols and classes), and a
/// run pays the runtime's first conformance lookup for each type it asks about: ~2 ms of the grid city's 0.08 s,
/// on the critical path after the loop (`Results/bench/speed.md`, "Twenty-second pass").
///
/// Invariant: for every value it encodes, the bytes equal `ResultWriter.json`'s (`PrettyJSONTests`, on every
/// bundled scenario's summary and on edge cases). What it cannot vouch for — non-finite numbers, the types
/// `JSONEncoder` encodes its own way (`Date`, `Data`, `URL`, `Decimal`), a `superEncoder`, keys not in ASCII,
/// two members under one key — throws `Unsupported`, and `ResultWriter.summaryJSON` then asks `JSONEncoder`. Not for `[String: …]` dictionaries:
/// `JSONEncoder` writes their keys as they are, this converts them like any other key (`RunSummary` has none).
enum PrettyJSON {
    /// A value `PrettyJSON` leaves to `JSONEncoder`.
    struct Unsupported: Error {}

    static func data<T: Encodable>(_ value: T) throws -> Data {
        let context = Context()
        let encoder = NodeEncoder(keys: context)
        try value.encode(to: encoder)
        guard !context.unsupported else { throw Unsupported() }
        var out: [UInt8] = []
        out.reserveCapacity(1 << 14)
        try write(encoder.node ?? .object(ObjectNode()), indent: 0, into: &out)
        return Data(out)
    }

    // MARK: - The tree

    /// A value: a container, or a scalar already in its JSON text.
    fileprivate enum Node {
        case object(ObjectNode)
        case array(ArrayNode)
        case scalar(String)
    }

    fileprivate final class ObjectNode {
        var members: [(key: String, value: Node)] = []
    }

    fileprivate final class ArrayNode {
        var items: [Node] = []
    }

    /// One document's keys in snake_case, each converted once, and whether it met something unsupported
    /// where it could not throw (a `superEncoder`, a key that is not ASCII).
    fileprivate final class Context {
        private var converted: [String: String] = [:]
        var unsupported = false

        func name(_ key: any CodingKey) -> String {
            let raw = key.stringValue
            if let name = converted[raw] { return name }
            guard let name = PrettyJSON.snakeCase(raw) else {
                unsupported = true
                return raw
            }
            converted[raw] = name
            return name
        }
    }

    // MARK: - Text

    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` for ASCII keys (nil for others): a word starts at
    /// each upper-case letter, a run of capitals is a word up to the capital before the next lower-case letter,
    /// words are lower-cased and joined by "_" ("aBCDef" → "a_bc_def", "ci95HalfWidth" → "ci95_half_width").
    static func snakeCase(_ key: String) -> String? {
        let chars = Array(key.utf8)
        guard chars.allSatisfy({ $0 < 0x80 }) else { return nil }
        guard chars.count > 1 else { return key.lowercased() }
        func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
        func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
        var words: [Range<Int>] = []
        var wordStart = 0
        var search = 1
        while let upper = (search..<chars.count).first(where: { isUpper(chars[$0]) }) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<chars.count).first(where: { isLower(chars[$0]) }) else {
                wordStart = upper
                search = chars.count
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            search = lower + 1
        }
        words.append(wordStart..<chars.count)
        return words.map { String(decoding: chars[$0], as: UTF8.self).lowercased() }.joined(separator: "_")
    }

    /// A string literal with `JSONEncoder`'s escapes: quote, backslash, the named control characters, the
    /// others as `\u00xx` (lower-case hex); slashes and everything from 0x7F on as they are.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x00..<0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A number as `JSONEncoder` writes it: the shortest text that reads back as the same value, without a
    /// trailing ".0".
    static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) throws -> String {
        guard value.isFinite else { throw Unsupported() }
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    /// Writes `node` at `indent`. Two members under one key (`JSONEncoder` keeps the last) are unsupported.
    private static func write(_ node: Node, indent: Int, into out: inout [UInt8]) throws {
        switch node {
        case .scalar(let text):
            out.append(contentsOf: text.utf8)
        case .object(let object):
            let members = object.members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            if zip(members, members.dropFirst()).contains(where: { $0.key == $1.key }) { throw Unsupported() }
            try open(UInt8(ascii: "{"), close: UInt8(ascii: "}"), count: members.count, indent: indent, into: &out) { i, out in
                out.append(contentsOf: literal(members[i].key).utf8)
                out.append(contentsOf: " : ".utf8)
                try write(members[i].value, indent: indent + 2, into: &out)
            }
        case .array(let array):
            try open(UInt8(ascii: "["), close: UInt8(ascii: "]"), count: array.items.count, indent: indent, into: &out) { i, out in
                try write(array.items[i], indent: indent + 2, into: &out)
            }
        }
    }

    /// A container's lines: each element on its own line, indented two more; an empty one as "[", an empty
    /// line, and the closing bracket at the container's indent (as `JSONEncoder` writes it).
    private static func open(_ opening: UInt8, close: UInt8, count: Int, indent: Int, into out: inout [UInt8],
                             element: (Int, inout [UInt8]) throws -> Void) rethrows {
        out.append(opening)
        out.append(0x0A)
        for i in 0..<count {
            out.append(contentsOf: repeatElement(0x20, count: indent + 2))
            try element(i, &out)
            if i + 1 < count { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
        }
        if count == 0 { out.append(0x0A) }
        out.append(contentsOf: repeatElement(0x20, count: indent))
        out.append(close)
    }

    // MARK: - Encoding

    /// The node of an encodable value; the types `JSONEncoder` encodes its own way are unsupported (told apart
    /// by their metatypes: no runtime cast).
    fileprivate static func node<T: Encodable>(_ value: T, keys: Context, path: [any CodingKey]) throws -> Node {
        if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw Unsupported() }
        let encoder = NodeEncoder(keys: keys, path: path)
        try value.encode(to: encoder)
        return encoder.node ?? .object(ObjectNode())
    }

    fileprivate final class NodeEncoder: Encoder {
        let keys: Context
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var node: Node?

        init(keys: Context, path: [any CodingKey] = []) {
            self.keys = keys
            codingPath = path
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: ObjectNode
            if case .object(let existing)? = node { object = existing } else { object = ObjectNode(); node = .object(object) }
            return KeyedEncodingContainer(KeyedNode<Key>(object: object, keys: keys, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: ArrayNode
            if case .array(let existing)? = node { array = existing } else { array = ArrayNode(); node = .array(array) }
            return UnkeyedNode(array: array, keys: keys, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { SingleNode(encoder: self) }
    }

    fileprivate struct KeyedNode<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectNode
        let keys: Context
        let codingPath: [any CodingKey]

        private func add(_ node: Node, _ key: Key) { object.members.append((keys.name(key), node)) }

        mutating func encodeNil(forKey key: Key) throws { add(.scalar("null"), key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(.scalar(value ? "true" : "false"), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(.scalar(PrettyJSON.literal(value)), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { add(.scalar(try PrettyJSON.number(value)), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { add(.scalar(try PrettyJSON.number(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { add(.scalar(String(value)), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            add(try PrettyJSON.node(value, keys: keys, path: codingPath + [key]), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                            forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            add(.object(nested), key)
            return KeyedEncodingContainer(KeyedNode<NestedKey>(object: nested, keys: keys, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            add(.array(nested), key)
            return UnkeyedNode(array: nested, keys: keys, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { unsupported() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { unsupported() }

        private func unsupported() -> any Encoder {
            keys.unsupported = true
            return NodeEncoder(keys: keys, path: codingPath)
        }
    }

    /// A container that takes one value at a time (an array's next item, or a single value): its scalar
    /// overloads, shared.
    fileprivate protocol ValueWriter {
        var keys: Context { get }
        var codingPath: [any CodingKey] { get }
        func put(_ node: Node)
    }

    fileprivate struct UnkeyedNode: UnkeyedEncodingContainer, ValueWriter {
        let array: ArrayNode
        let keys: Context
        let codingPath: [any CodingKey]
        var count: Int { array.items.count }

        func put(_ node: Node) { array.items.append(node) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            put(.object(nested))
            return KeyedEncodingContainer(KeyedNode<NestedKey>(object: nested, keys: keys, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            put(.array(nested))
            return UnkeyedNode(array: nested, keys: keys, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            keys.unsupported = true
            return NodeEncoder(keys: keys, path: codingPath)
        }
    }

    fileprivate struct SingleNode: SingleValueEncodingContainer, ValueWriter {
        let encoder: NodeEncoder
        var keys: Context { encoder.keys }
        var codingPath: [any CodingKey] { encoder.codingPath }

        func put(_ node: Node) { encoder.node = node }
    }
}

extension PrettyJSON.ValueWriter {
    mutating func encodeNil() throws { put(.scalar("null")) }
    mutating func encode(_ value: Bool) throws { put(.scalar(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(.scalar(PrettyJSON.literal(value))) }
    mutating func encode(_ value: Double) throws { put(.scalar(try PrettyJSON.number(value))) }
    mutating func encode(_ value: Float) throws { put(.scalar(try PrettyJSON.number(value))) }
    mutating func encode(_ value: Int) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: Int8) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: Int16) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: Int32) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: Int64) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: UInt) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: UInt8) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: UInt16) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: UInt32) throws { put(.scalar(String(value))) }
    mutating func encode(_ value: UInt64) throws { put(.scalar(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { put(try PrettyJSON.node(value, keys: keys, path: codingPath)) }
}
