import DispatchCore

/// A `Codable` encoder to a compact, positional binary form, for checkpoints: a snapshot of 120,000
/// rides is 100 MB of JSON, which `JSONEncoder` builds as a tree in memory first (1.3 GiB of RSS at
/// the 1,000 rides/s soak); this writes straight into one byte array.
///
/// Format (read back by `CompactBinaryDecoder`): keys are not written, values follow in the order they
/// are encoded; integers are LEB128 varints (signed ones zigzagged), `Double` its 8 bytes little-endian,
/// `Bool` one byte, strings a varint length and UTF-8; an unkeyed container (arrays, dictionaries with
/// non-string keys) starts with its element count (4 bytes little-endian); a keyed optional is one byte,
/// 0 (absent) or 1 followed by the value.
///
/// Invariant: the decoder reads a value back exactly when it asks for the same types in the same order,
/// as synthesized `Codable` does. It cannot carry what needs the keys themselves: enums with associated
/// values under synthesized `Codable` (their keys name the case; give them a positional `Codable`, as
/// `DriverStatus` has) and dictionaries keyed by `String` or `Int` (their keys are not written). The
/// decoder refuses both (`allKeys` is read), and the checkpoint round-trip tests would fail on them.
struct CompactBinaryEncoder {
    /// The bytes of `value`.
    func encode<T: Encodable>(_ value: T, reservingCapacity capacity: Int = 1 << 16) throws -> [UInt8] {
        let sink = ByteSink()
        sink.bytes.reserveCapacity(capacity)
        try value.encode(to: BinaryEncoding(sink: sink, codingPath: []))
        return sink.bytes
    }
}

/// The growing output of one encoding.
final class ByteSink {
    var bytes: [UInt8] = []

    func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    func fixed64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }

    func double(_ value: Double) { fixed64(value.bitPattern) }

    /// A position as its synthesized `Codable` writes it: x, then y.
    func position(_ value: Position) {
        double(value.x)
        double(value.y)
    }

    /// A keyed optional: 0 when absent, else 1 and the value.
    func optional<T>(_ value: T?, _ write: (T) -> Void) {
        guard let value else { bytes.append(0); return }
        bytes.append(1)
        write(value)
    }

    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Writes one primitive value; shared by the three container kinds.
private protocol PrimitiveWriter {
    var sink: ByteSink { get }
    var codingPath: [any CodingKey] { get }
}

extension PrimitiveWriter {
    /// A value of a primitive type written as the format says, anything else through its own `encode(to:)`.
    /// The type is told by comparing metatypes (a pointer comparison each), not by `as?` casts: a checkpoint
    /// writes millions of values, most of them nested structs that a chain of failing casts tried one by one.
    func write<T: Encodable>(_ value: T) throws {
        if T.self == Double.self { sink.fixed64(unsafeBitCast(value, to: Double.self).bitPattern) }
        else if T.self == Int.self { sink.signed(Int64(unsafeBitCast(value, to: Int.self))) }
        else if T.self == Bool.self { sink.bytes.append(unsafeBitCast(value, to: Bool.self) ? 1 : 0) }
        else if T.self == String.self { sink.string(unsafeBitCast(value, to: String.self)) }
        else if T.self == Float.self { sink.fixed64(UInt64(unsafeBitCast(value, to: Float.self).bitPattern)) }
        else if T.self == Int8.self { sink.signed(Int64(unsafeBitCast(value, to: Int8.self))) }
        else if T.self == Int16.self { sink.signed(Int64(unsafeBitCast(value, to: Int16.self))) }
        else if T.self == Int32.self { sink.signed(Int64(unsafeBitCast(value, to: Int32.self))) }
        else if T.self == Int64.self { sink.signed(unsafeBitCast(value, to: Int64.self)) }
        else if T.self == UInt.self { sink.varint(UInt64(unsafeBitCast(value, to: UInt.self))) }
        else if T.self == UInt8.self { sink.varint(UInt64(unsafeBitCast(value, to: UInt8.self))) }
        else if T.self == UInt16.self { sink.varint(UInt64(unsafeBitCast(value, to: UInt16.self))) }
        else if T.self == UInt32.self { sink.varint(UInt64(unsafeBitCast(value, to: UInt32.self))) }
        else if T.self == UInt64.self { sink.varint(unsafeBitCast(value, to: UInt64.self)) }
        // The checkpoint's most frequent compound values, written by hand in the bytes their `Codable` gives
        // (`CompactBinaryCoderTests` pins each to it): the generic path's containers, boxes and metadata
        // lookups were most of a checkpoint's time (session 24).
        else if T.self == RequestID.self { sink.signed(Int64(unsafeBitCast(value, to: RequestID.self).rawValue)) }
        else if T.self == CustomerID.self { sink.signed(Int64(unsafeBitCast(value, to: CustomerID.self).rawValue)) }
        else if T.self == DriverID.self { sink.signed(Int64(unsafeBitCast(value, to: DriverID.self).rawValue)) }
        else if T.self == Position.self { sink.position(unsafeBitCast(value, to: Position.self)) }
        else if T.self == RideLedger.Ride.self { unsafeBitCast(value, to: RideLedger.Ride.self).writeCompact(to: sink) }
        else { try value.encode(to: BinaryEncoding(sink: sink, codingPath: codingPath)) }
    }
}

private struct BinaryEncoding: Encoder {
    let sink: ByteSink
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedWriter<Key>(sink: sink, codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedWriter(sink: sink, codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { SingleWriter(sink: sink, codingPath: codingPath) }
}

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol, PrimitiveWriter {
    let sink: ByteSink
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { sink.bytes.append(0) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try write(value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { sink.bytes.append(0); return }
        sink.bytes.append(1)
        try encode(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeIfPresent(value as Bool??, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeIfPresent(value as String??, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeIfPresent(value as Double??, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresent(value as Float??, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeIfPresent(value as Int??, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value as Int8??, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value as Int16??, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value as Int32??, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value as Int64??, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value as UInt??, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value as UInt8??, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value as UInt16??, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value as UInt32??, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresent(value as UInt64??, key) }

    private mutating func encodeIfPresent<T: Encodable>(_ value: T??, _ key: Key) throws {
        guard case .some(.some(let present)) = value else { sink.bytes.append(0); return }
        sink.bytes.append(1)
        try encode(present, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedWriter<NestedKey>(sink: sink, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedWriter(sink: sink, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder { BinaryEncoding(sink: sink, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { BinaryEncoding(sink: sink, codingPath: codingPath + [key]) }
}

/// Writes its element count in the 4 bytes it reserved at its start, after each element.
private struct UnkeyedWriter: UnkeyedEncodingContainer, PrimitiveWriter {
    let sink: ByteSink
    let codingPath: [any CodingKey]
    private(set) var count = 0
    private let countAt: Int

    init(sink: ByteSink, codingPath: [any CodingKey]) {
        self.sink = sink
        self.codingPath = codingPath
        countAt = sink.bytes.count
        sink.bytes += [0, 0, 0, 0]
    }

    private mutating func counted() {
        count += 1
        let n = UInt32(truncatingIfNeeded: count)
        for i in 0..<4 { sink.bytes[countAt + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt32(i))) }
    }

    mutating func encodeNil() throws {
        throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath,
            debugDescription: "an optional element of an unkeyed container has no compact form"))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try write(value)
        counted()
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        counted()
        return KeyedEncodingContainer(KeyedWriter<NestedKey>(sink: sink, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        counted()
        return UnkeyedWriter(sink: sink, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder {
        counted()
        return BinaryEncoding(sink: sink, codingPath: codingPath)
    }
}

private struct SingleWriter: SingleValueEncodingContainer, PrimitiveWriter {
    let sink: ByteSink
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath,
            debugDescription: "a single optional value has no compact form (only keyed optionals do)"))
    }
    mutating func encode<T: Encodable>(_ value: T) throws { try write(value) }
}
