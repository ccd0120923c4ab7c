import DispatchCore
import Testing
@testable import DispatchService

/// `CompactBinaryEncoder` and `CompactBinaryDecoder`: values come back equal, and damaged bytes are
/// an error, never a crash or a wrong value read silently.
@Suite struct CompactBinaryCoderTests {
    struct Sample: Codable, Equatable {
        var count: Int
        var small: Int32
        var big: UInt64
        var ratio: Double
        var deadline: Double
        var flag: Bool
        var name: String
        var maybe: Double?
        var absent: String?
        var lists: [[Int32]]
        var states: [RequestID: RequestStatus]
        var drivers: [DriverStatus]
        var places: [Position]
    }

    static let sample = Sample(
        count: -123_456_789, small: -1, big: .max, ratio: 0.1, deadline: -.infinity, flag: true, name: "TX-ä 1",
        maybe: 3.5, absent: nil, lists: [[], [1, -2, 3]],
        states: [RequestID(1): .offered(DriverID(7)), RequestID(2): .completed, RequestID(3): .pending],
        drivers: [.offShift, .available(ZoneID(4)), .onRide(RequestID(9))],
        places: [Position(x: 1.5, y: -2)])

    @Test func aValueComesBackEqual() throws {
        let bytes = try CompactBinaryEncoder().encode(Self.sample)
        #expect(try CompactBinaryDecoder().decode(Sample.self, from: bytes) == Self.sample)
    }

    @Test func everyTruncationAndATrailingByteAreErrors() throws {
        let bytes = try CompactBinaryEncoder().encode(Self.sample)
        for cut in 0..<bytes.count {
            #expect(throws: DecodingError.self) { try CompactBinaryDecoder().decode(Sample.self, from: Array(bytes.prefix(cut))) }
        }
        #expect(throws: DecodingError.self) { try CompactBinaryDecoder().decode(Sample.self, from: bytes + [0]) }
    }

    /// Every primitive type once, keyed, unkeyed, single and optional, with nested structs and enums: no
    /// dictionary, whose order changes from run to run.
    struct Ordered: Codable, Equatable {
        var int = -123_456_789, int8: Int8 = -8, int16: Int16 = 300, int32: Int32 = -1, int64: Int64 = .min
        var uint: UInt = 7, uint8: UInt8 = 255, uint16: UInt16 = 65_535, uint32: UInt32 = 1 << 31, uint64: UInt64 = .max
        var double = 0.1, infinite = -Double.infinity, float: Float = 2.5, flag = true, name = "TX-ä 1"
        var maybe: Double? = 3.5, absent: String? = nil, maybeInt: Int? = -2, maybeFlag: Bool? = false
        var lists: [[Int32]] = [[], [1, -2, 3]], names = ["a", ""], flags = [true, false], doubles = [1.5, -0.0]
        var drivers: [DriverStatus] = [.offShift, .available(ZoneID(4)), .onRide(RequestID(9))]
        var places = [Position(x: 1.5, y: -2)]
        var request = RequestID(12)
    }

    /// The bytes of `Ordered`, as written before the encoder wrote primitives without dynamic casts: a faster
    /// encoder must keep the checkpoint format byte for byte.
    static let orderedBytes: [UInt8] = [
        169, 180, 222, 117, 15, 216, 4, 1, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1, 7, 255, 1, 255, 255, 3,
        128, 128, 128, 128, 8, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1, 154, 153, 153, 153, 153, 153, 185, 63, 0,
        0, 0, 0, 0, 0, 240, 255, 0, 0, 32, 64, 0, 0, 0, 0, 1, 7, 84, 88, 45, 195, 164, 32, 49,
        1, 0, 0, 0, 0, 0, 0, 12, 64, 0, 1, 3, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0,
        0, 0, 2, 3, 6, 2, 0, 0, 0, 1, 97, 0, 2, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 248, 63, 0, 0, 0, 0, 0, 0, 0, 128, 3, 0, 0, 0, 1, 0, 0, 0, 0, 2,
        0, 0, 0, 2, 8, 2, 0, 0, 0, 5, 18, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 248, 63, 0,
        0, 0, 0, 0, 0, 0, 192, 24,
    ]

    @Test func theFormatIsPinnedByteForByte() throws {
        let bytes = try CompactBinaryEncoder().encode(Ordered())
        #expect(bytes == Self.orderedBytes, "\(bytes)")
        #expect(try CompactBinaryDecoder().decode(Ordered.self, from: bytes) == Ordered())
    }

    /// The encoder writes the checkpoint's most frequent values by hand (identifiers, positions, the ledger's
    /// rides). Nested, where the hand-written form is used, each must be the bytes its own `Codable` writes at
    /// the top level, where it is not: a field written in another order, or one left out, fails here.
    @Test func valuesWrittenByHandAreTheBytesTheirCodableWrites() throws {
        func expectSameBytes<T: Codable & Equatable>(_ value: T) throws {
            let synthesized = try CompactBinaryEncoder().encode(value)
            let nested = try CompactBinaryEncoder().encode([value])
            #expect(Array(nested.dropFirst(4)) == synthesized, "\(T.self): \(nested) against \(synthesized)")
            #expect(try CompactBinaryDecoder().decode([T].self, from: nested) == [value])
        }
        try expectSameBytes(RequestID(-70_000))
        try expectSameBytes(CustomerID(1 << 40))
        try expectSameBytes(DriverID(300))
        try expectSameBytes(Position(x: -0.5, y: 1e9))
        let bare = RideLedger.Ride(id: RequestID(11), customer: CustomerID(12), origin: Position(x: 1, y: 2),
                                   destination: Position(x: 3, y: 4), requestedAt: 5, meetingTime: nil)
        try expectSameBytes(bare)
        var full = RideLedger.Ride(id: RequestID(21), customer: CustomerID(22), origin: Position(x: 1.25, y: 2.5),
                                   destination: Position(x: 3.75, y: -4), requestedAt: 6.5, meetingTime: 7.25)
        full.taxiCode = "TX-ä 9"
        full.etaSeconds = 8.5
        full.notifiedAt = 9.75
        full.fareCharged = 10.125
        full.servedBy = DriverID(23)
        full.pickedUpAt = 11.5
        full.completedAt = 12.75
        try expectSameBytes(full)
    }

    /// A dictionary keyed by `String` needs its keys, which the compact form does not write: refused when read.
    @Test func aStringKeyedDictionaryIsRefused() throws {
        let bytes = try CompactBinaryEncoder().encode(["a": 1, "b": 2])
        #expect(throws: DecodingError.self) { try CompactBinaryDecoder().decode([String: Int].self, from: bytes) }
    }
}
