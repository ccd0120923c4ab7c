/// Reads what `CompactBinaryEncoder` wrote (see its format). Every read is bounds-checked: bytes that
/// end early, a varint too long, a count larger than the bytes left, or bytes left over throw
/// `DecodingError.dataCorrupted`, never a crash.
struct CompactBinaryDecoder {
    /// The value `bytes` hold.
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let source = ByteSource(bytes)
        let value = try T(from: BinaryDecoding(source: source, codingPath: []))
        if source.askedForKeys { throw source.corrupt("a container's keys were asked for; the compact form has none") }
        guard source.at == bytes.count else { throw source.corrupt("\(bytes.count - source.at) bytes left over") }
        return value
    }
}

/// The input of one decoding and the read position.
final class ByteSource {
    let bytes: [UInt8]
    var at = 0
    /// Set when a decoder read `allKeys` (which it cannot be told), so the decoding fails.
    var askedForKeys = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func corrupt(_ why: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "compact binary at byte \(at): \(why)"))
    }

    func byte() throws -> UInt8 {
        guard at < bytes.count else { throw corrupt("ends early") }
        defer { at += 1 }
        return bytes[at]
    }

    func varint() throws -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), through: 63, by: 7) {
            let b = try byte()
            value |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return value }
        }
        throw corrupt("a varint longer than 10 bytes")
    }

    func signed() throws -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    func fixed(_ count: Int) throws -> UInt64 {
        guard bytes.count - at >= count else { throw corrupt("ends early") }
        var value: UInt64 = 0
        for i in 0..<count { value |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
        at += count
        return value
    }

    func string() throws -> String {
        let count = try varint()
        guard count <= UInt64(bytes.count - at) else { throw corrupt("a string longer than the bytes left") }
        defer { at += Int(count) }
        return String(decoding: bytes[at..<at + Int(count)], as: UTF8.self)
    }
}

/// Reads one primitive value; shared by the three container kinds.
private protocol PrimitiveReader {
    var source: ByteSource { get }
    var codingPath: [any CodingKey] { get }
}

extension PrimitiveReader {
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        if T.isSigned {
            guard let v = T(exactly: try source.signed()) else { throw source.corrupt("\(T.self) out of range") }
            return v
        }
        guard let v = T(exactly: try source.varint()) else { throw source.corrupt("\(T.self) out of range") }
        return v
    }

    func read<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {  // the most frequent types of a snapshot first
        case is Double.Type: return Double(bitPattern: try source.fixed(8)) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Bool.Type:
            let b = try source.byte()
            guard b <= 1 else { throw source.corrupt("a Bool byte \(b)") }
            return (b == 1) as! T
        case is String.Type: return try source.string() as! T
        case is Float.Type: return Float(bitPattern: UInt32(truncatingIfNeeded: try source.fixed(8))) as! T
        case is Int8.Type: return try integer(Int8.self) as! T
        case is Int16.Type: return try integer(Int16.self) as! T
        case is Int32.Type: return try integer(Int32.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is UInt.Type: return try integer(UInt.self) as! T
        case is UInt8.Type: return try integer(UInt8.self) as! T
        case is UInt16.Type: return try integer(UInt16.self) as! T
        case is UInt32.Type: return try integer(UInt32.self) as! T
        case is UInt64.Type: return try integer(UInt64.self) as! T
        default: return try T(from: BinaryDecoding(source: source, codingPath: codingPath))
        }
    }
}

private struct BinaryDecoding: Decoder {
    let source: ByteSource
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedReader<Key>(source: source, codingPath: codingPath))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try UnkeyedReader(source: source, codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleReader(source: source, codingPath: codingPath) }
}

private struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol, PrimitiveReader {
    let source: ByteSource
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        source.askedForKeys = true
        return []
    }
    /// Every key is "there": a keyed optional says itself whether it is (`decodeNil`).
    func contains(_ key: Key) -> Bool { true }
    /// Reads a keyed optional's presence byte: true (and nothing follows) when absent.
    func decodeNil(forKey key: Key) throws -> Bool {
        switch try source.byte() {
        case 0: return true
        case 1: return false
        case let b: throw source.corrupt("an optional's presence byte \(b)")
        }
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try read(type) }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type,
                                               forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(KeyedReader<NestedKey>(source: source, codingPath: codingPath + [key]))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try UnkeyedReader(source: source, codingPath: codingPath + [key])
    }
    func superDecoder() throws -> any Decoder { BinaryDecoding(source: source, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { BinaryDecoding(source: source, codingPath: codingPath + [key]) }
}

private struct UnkeyedReader: UnkeyedDecodingContainer, PrimitiveReader {
    let source: ByteSource
    let codingPath: [any CodingKey]
    let count: Int?
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= count! }

    init(source: ByteSource, codingPath: [any CodingKey]) throws {
        self.source = source
        self.codingPath = codingPath
        let n = Int(try source.fixed(4))
        // Every element takes at least one byte, so a count beyond the bytes left is corrupt (and not allocated).
        guard n <= source.bytes.count - source.at else { throw source.corrupt("\(n) elements in fewer bytes") }
        count = n
    }

    private mutating func next() throws {
        guard !isAtEnd else { throw source.corrupt("more elements read than the \(count!) stored") }
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next()
        return try read(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next()
        return KeyedDecodingContainer(KeyedReader<NestedKey>(source: source, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next()
        return try UnkeyedReader(source: source, codingPath: codingPath)
    }
    mutating func superDecoder() throws -> any Decoder {
        try next()
        return BinaryDecoding(source: source, codingPath: codingPath)
    }
}

private struct SingleReader: SingleValueDecodingContainer, PrimitiveReader {
    let source: ByteSource
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read(type) }
}
