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

    /// A dictionary keyed by `String` needs its keys, which the compact form does not write: refused when read.
    @Test func aStringKeyedDictionaryIsRefused() throws {
        let bytes = try CompactBinaryEncoder().encode(["a": 1, "b": 2])
        #expect(throws: DecodingError.self) { try CompactBinaryDecoder().decode([String: Int].self, from: bytes) }
    }
}
