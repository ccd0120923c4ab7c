import Foundation
import NIOCore

/// Frames HTTP/1.1 responses out of the bytes a keep-alive connection reads, for the load generator's
/// own connections (`BurstClient`): the status and the body of each response, in order.
///
/// It reads what a server answering requests (not HEAD, not upgrades) may send: a status line, header
/// lines, and a body framed by `Content-Length` or `Transfer-Encoding: chunked` (trailers skipped);
/// interim 1xx responses are passed over. A response with neither framing (a body read until the
/// connection closes) or anything else it cannot frame is an error, never a guess.
///
/// Invariant: `next()` gives each complete response once, in arrival order; bytes of a response not
/// yet complete stay buffered until `append` brings the rest.
struct HTTPResponseReader {
    /// One response: its status code, its body, and whether the server will close the connection after it.
    struct Response {
        var status: Int
        var body: ByteBuffer
        var closes: Bool
    }

    /// Why the bytes are not a response this reader frames.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// The longest head (status line and headers) accepted.
    static let headLimit = 64 << 10

    private var buffer = ByteBuffer()

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: inout ByteBuffer) {
        if buffer.readableBytes == 0 {
            swap(&buffer, &bytes)
        } else {
            buffer.writeBuffer(&bytes)
        }
    }

    /// The next complete response, or nil while its bytes have not all come.
    mutating func next() throws(Malformed) -> Response? {
        while true {
            guard let headEnd = Self.find(Self.blankLine, in: buffer) else {
                if buffer.readableBytes > Self.headLimit { throw Malformed(description: "a response head longer than 64 KiB") }
                return nil
            }
            let head = Self.parseHead(buffer.getSlice(at: buffer.readerIndex, length: headEnd)!)
            guard let head else { throw Malformed(description: "not an HTTP/1.1 status line and headers") }
            let bodyStart = headEnd + Self.blankLine.count
            if (100..<200).contains(head.status) {
                buffer.moveReaderIndex(forwardBy: bodyStart)
                continue
            }
            let framed: (body: ByteBuffer, length: Int)?
            if head.chunked {
                framed = try Self.chunkedBody(in: buffer, from: bodyStart)
            } else if let length = head.contentLength {
                guard buffer.readableBytes - bodyStart >= length else { return nil }
                framed = (buffer.getSlice(at: buffer.readerIndex + bodyStart, length: length)!, length)
            } else if head.status == 204 || head.status == 304 {
                framed = (ByteBuffer(), 0)
            } else {
                throw Malformed(description: "a \(head.status) response with neither Content-Length nor chunked framing")
            }
            guard let framed else { return nil }
            buffer.moveReaderIndex(forwardBy: bodyStart + framed.length)
            if buffer.readableBytes == 0 { buffer.clear() }
            return Response(status: head.status, body: framed.body, closes: head.closes)
        }
    }

    private static let blankLine = Array("\r\n\r\n".utf8)
    private static let lineEnd = Array("\r\n".utf8)

    /// Offset of `pattern` from the reader index of `buffer`, at or after `start`.
    private static func find(_ pattern: [UInt8], in buffer: ByteBuffer, from start: Int = 0) -> Int? {
        buffer.withUnsafeReadableBytes { bytes -> Int? in
            guard bytes.count >= start + pattern.count else { return nil }
            var i = start
            let last = bytes.count - pattern.count
            while i <= last {
                if bytes[i] == pattern[0] {
                    var j = 1
                    while j < pattern.count && bytes[i + j] == pattern[j] { j += 1 }
                    if j == pattern.count { return i }
                }
                i += 1
            }
            return nil
        }
    }

    private struct Head {
        var status: Int
        var contentLength: Int?
        var chunked = false
        var closes = false
    }

    /// The status line and the headers that frame the body; nil when they are not HTTP/1.x. Read as bytes:
    /// the load generator frames thousands of answers a second beside the service it measures.
    private static func parseHead(_ head: ByteBuffer) -> Head? {
        head.withUnsafeReadableBytes { bytes -> Head? in
            // "HTTP/1.x NNN" at least.
            guard bytes.count >= 12, matches(bytes, 0, "http/1."), bytes[8] == UInt8(ascii: " ") else { return nil }
            var status = 0
            for i in 9..<12 {
                guard let digit = digit(bytes[i]) else { return nil }
                status = status * 10 + digit
            }
            var parsed = Head(status: status, closes: bytes[7] == UInt8(ascii: "0"))
            var line = lineEnd(bytes, from: 0) + 2
            while line < bytes.count {
                let stop = lineEnd(bytes, from: line)
                guard let colon = (line..<stop).first(where: { bytes[$0] == UInt8(ascii: ":") }) else { return nil }
                var from = colon + 1, to = stop
                while from < to && (bytes[from] == 0x20 || bytes[from] == 0x09) { from += 1 }
                while to > from && (bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09) { to -= 1 }
                let nameLength = colon - line
                if nameLength == 14 && matches(bytes, line, "content-length") {
                    var length = 0
                    guard from < to, to - from <= 18 else { return nil }
                    for i in from..<to {
                        guard let digit = digit(bytes[i]) else { return nil }
                        length = length * 10 + digit
                    }
                    parsed.contentLength = length
                } else if nameLength == 17 && matches(bytes, line, "transfer-encoding") {
                    parsed.chunked = to - from >= 7 && matches(bytes, to - 7, "chunked")
                } else if nameLength == 10 && matches(bytes, line, "connection") {
                    if contains(bytes, from..<to, "close") { parsed.closes = true }
                    if contains(bytes, from..<to, "keep-alive") { parsed.closes = false }
                }
                line = stop + 2
            }
            return parsed
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte &- 0x30) : nil
    }

    /// Where the line starting at `from` ends (its CR), or the end of the bytes.
    private static func lineEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int {
        var i = from
        while i + 1 < bytes.count && !(bytes[i] == 0x0D && bytes[i + 1] == 0x0A) { i += 1 }
        return i + 1 < bytes.count ? i : bytes.count
    }

    /// Whether the bytes at `at` spell `lowercase` (ASCII letters compared without case).
    private static func matches(_ bytes: UnsafeRawBufferPointer, _ at: Int, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard at >= 0, at + count <= bytes.count else { return false }
        let pattern = lowercase.utf8Start
        for i in 0..<count where bytes[at + i] | 0x20 != pattern[i] | 0x20 { return false }
        return true
    }

    private static func contains(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard range.count >= count else { return false }
        return (range.lowerBound...(range.upperBound - count)).contains { matches(bytes, $0, lowercase) }
    }

    /// A chunked body starting at offset `start`: the joined chunks and how many bytes it spans, trailers
    /// included; nil while incomplete.
    private static func chunkedBody(in buffer: ByteBuffer, from start: Int) throws(Malformed) -> (body: ByteBuffer, length: Int)? {
        var body = ByteBuffer()
        var at = start
        while true {
            guard let sizeEnd = find(lineEnd, in: buffer, from: at) else { return nil }
            let sizeLine = String(buffer: buffer.getSlice(at: buffer.readerIndex + at, length: sizeEnd - at)!)
            let digits = sizeLine.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(digits, radix: 16), size >= 0 else { throw Malformed(description: "a bad chunk size \"\(sizeLine)\"") }
            at = sizeEnd + lineEnd.count
            if size == 0 {
                // Trailers, if any, then the blank line that ends the body.
                while true {
                    guard let lineStop = find(lineEnd, in: buffer, from: at) else { return nil }
                    let empty = lineStop == at
                    at = lineStop + lineEnd.count
                    if empty { return (body, at - start) }
                }
            }
            guard buffer.readableBytes >= at + size + lineEnd.count else { return nil }
            var chunk = buffer.getSlice(at: buffer.readerIndex + at, length: size)!
            body.writeBuffer(&chunk)
            at += size + lineEnd.count
        }
    }
}
