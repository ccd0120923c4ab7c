import NIOCore
import Testing
@testable import ServiceLoad

/// `HTTPResponseReader`: the framing of the burst clients' answers.
struct HTTPResponseReaderTests {
    /// Three pipelined answers: a 100 Continue before a 201 with a length, a chunked 200 with an extension
    /// and a trailer, and a 204 that closes.
    static let stream = "HTTP/1.1 100 Continue\r\n\r\n"
        + "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\ncontent-length: 11\r\n\r\n{\"id\": 17}\n"
        + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n3\r\nefg\r\n0\r\nTrailer: 1\r\n\r\n"
        + "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"

    static func read(_ pieces: [String]) throws -> [(Int, String, Bool)] {
        var reader = HTTPResponseReader()
        var out: [(Int, String, Bool)] = []
        for piece in pieces {
            var bytes = ByteBuffer(string: piece)
            reader.append(&bytes)
            while let response = try reader.next() {
                out.append((response.status, String(buffer: response.body), response.closes))
            }
        }
        return out
    }

    @Test func answersAreFramedTheSameWhateverTheReadsCutThem() throws {
        let whole = try Self.read([Self.stream])
        #expect(whole.map(\.0) == [201, 200, 204])
        #expect(whole.map(\.1) == ["{\"id\": 17}\n", "abcdefg", ""])
        #expect(whole.map(\.2) == [false, false, true])
        let byteByByte = try Self.read(Self.stream.map { String($0) })
        #expect(byteByByte.map(\.0) == whole.map(\.0) && byteByByte.map(\.1) == whole.map(\.1))
        for cut in stride(from: 1, to: Self.stream.utf8.count, by: 7) {
            let text = Array(Self.stream.utf8)
            let halves = [String(decoding: text[..<cut], as: UTF8.self), String(decoding: text[cut...], as: UTF8.self)]
            #expect(try Self.read(halves).map(\.1) == whole.map(\.1), "cut at \(cut)")
        }
    }

    @Test func anIncompleteBodyWaitsForTheRest() throws {
        #expect(try Self.read(["HTTP/1.1 201 Created\r\nContent-Length: 5\r\n\r\nabcd"]).isEmpty)
        #expect(try Self.read(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n"]).isEmpty)
    }

    @Test func whatCannotBeFramedIsAnErrorNotAGuess() {
        #expect(throws: HTTPResponseReader.Malformed.self) { try Self.read(["HTTP/1.1 200 OK\r\n\r\nbody until close"]) }
        #expect(throws: HTTPResponseReader.Malformed.self) { try Self.read(["SSH-2.0-OpenSSH\r\n\r\n"]) }
        #expect(throws: HTTPResponseReader.Malformed.self) { try Self.read(["HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n"]) }
        #expect(throws: HTTPResponseReader.Malformed.self) {
            try Self.read(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"])
        }
        #expect(throws: HTTPResponseReader.Malformed.self) {
            try Self.read(["HTTP/1.1 200 OK\r\n" + String(repeating: "X-Long: 1\r\n", count: 7_000)])
        }
    }
}
