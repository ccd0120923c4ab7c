import Foundation
import NIOCore
import Testing
@testable import DispatchService

/// The fast reader of `POST /v1/rides` bodies agrees with `JSONDecoder` wherever it answers,
/// and leaves every other body to it.
@Suite struct RideRequestReaderTests {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    static func decoded(_ text: String) -> RideController.RideRequest? {
        try? decoder.decode(RideController.RideRequest.self, from: Data(text.utf8))
    }

    static func same(_ a: RideController.RideRequest?, _ b: RideController.RideRequest?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.origin.x.bitPattern == b.origin.x.bitPattern && a.origin.y.bitPattern == b.origin.y.bitPattern
            && a.destination.x.bitPattern == b.destination.x.bitPattern
            && a.destination.y.bitPattern == b.destination.y.bitPattern && a.patienceS == b.patienceS
    }

    @Test(arguments: [
        #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000}}"#,
        #" { "destination" : { "y" : 3000.5 , "x" : 0 } ,"origin":{"x":-0.0,"y":1e3},"patience_s":120 } "#,
        #"{"origin":{"x":0.1,"y":12345678901234567890},"destination":{"x":2.5E-3,"y":7},"patience_s":0}"#,
        "{\"origin\":{\"x\":1,\"y\":2},\n\t\"destination\":{\"x\":3,\"y\":4}}\r\n",
    ])
    func readsUsualBodiesAsJSONDecoderDoes(_ text: String) {
        let read = RideRequestReader.read(ByteBuffer(string: text))
        #expect(read != nil)
        #expect(Self.same(read, Self.decoded(text)))
    }

    @Test(arguments: [
        #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"patienceS":5}"#,   // camelCase: the decoder's
        #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"patience_s":null}"#,
        #"{"origin":{"x":900,"y":400},"origin":{"x":1,"y":1},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":900,"y":400}}"#,
        #"{"origin":{"x":"900","y":400},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":01,"y":400},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":1.,"y":400},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":1e999,"y":400},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":1,"y":400,"z":0},"destination":{"x":3000,"y":3000}}"#,
        #"{"ori\u0067in":{"x":1,"y":400},"destination":{"x":3000,"y":3000}}"#,
        #"{"origin":{"x":1,"y":400},"destination":{"x":3000,"y":3000}} x"#,
        #"{"origin":{"x":1,"y":400},"destination":{"x":3000,"y":3000},}"#,
        "", "{}", "[]",
    ])
    func leavesEveryOtherBodyToJSONDecoder(_ text: String) {
        #expect(RideRequestReader.read(ByteBuffer(string: text)) == nil)
    }
}
