import Foundation
import NIOCore
import Testing
@testable import ServiceLoad

/// `RideAnswerScan`: the id and status of a ride's answer without decoding it all.
struct RideAnswerScanTests {
    static func scan(_ text: String) -> (Int, String)? {
        RideAnswerScan.idAndStatus(ByteBuffer(string: text)).map { ($0.id, $0.status) }
    }

    @Test func theTopLevelIdAndStatusAreReadWhateverTheOtherMembersHold() throws {
        let answer = #"{"destination":{"x":1.5,"y":2e3},"eta_seconds":-12.25,"fare_charged":0,"id":4711,"kind":"imm\"ediate","#
            + #""meeting_time":"2026-11-28T10:00:00Z","origin":{"id":99,"status":"nested","list":[1,{"id":3},"]"]},"#
            + #""requested_at":"2026-11-28T09:58:00Z","status":"rejected","taxi_code":null,"flag":true}"#
        let scanned = try #require(Self.scan(answer))
        #expect(scanned.0 == 4711 && scanned.1 == "rejected")
        #expect(Self.scan(" {\n \"status\" : \"assigned\" ,\t\"id\" : -3 } ").map { "\($0.0) \($0.1)" } == "-3 assigned")
    }

    @Test func whatItCannotReadForSureIsNil() {
        for text in [
            #"{"id":1}"#, #"{"status":"x"}"#, #"{"id":1.0,"status":"x"}"#, #"{"id":"1","status":"x"}"#,
            #"{"id":1,"status":"a\"b"}"#, #"{"id":1,"status":"x""#, #"[{"id":1,"status":"x"}]"#, #"{"id":1,"status":"x","y":}"#,
            #"{"id":1,"status":"x","y":{"z":1}"#, "", #"{"id":99999999999999999999,"status":"x"}"#,
        ] {
            #expect(Self.scan(text) == nil, "\(text)")
        }
    }

    @Test func theScanAgreesWithTheDocumentsDecodeOnAServiceAnswer() throws {
        let answer = #"{"destination":{"x":3000,"y":3000},"fare_charged":0,"id":12,"kind":"immediate","#
            + #""origin":{"x":1000,"y":1000},"requested_at":"2026-11-28T09:58:00Z","status":"rejected"}"#
        let ride = try #require(APIAnswer(status: 201, body: ByteBuffer(string: answer)).decode(WireRide.self))
        let scanned = try #require(Self.scan(answer))
        #expect(scanned.0 == ride.id && scanned.1 == ride.status.rawValue)
    }
}
