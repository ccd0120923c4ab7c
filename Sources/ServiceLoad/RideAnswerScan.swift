import NIOCore

/// The two fields of a ride's JSON answer the load generator keeps for every ride (`AcknowledgedRides`):
/// the top-level `id` (an integer) and `status` (a string), read by one pass over the bytes instead of a
/// `JSONDecoder` decode of the whole `Ride`. The burst clients decode one answer in `BurstClient.decodeEvery`
/// in full, to check it is the document's `Ride`, and this scan gives the rest.
///
/// Invariant: it answers only for a JSON object whose top level holds `"id"` as an integer and `"status"`
/// as a string without escapes, skipping every other member whatever it holds (nested objects, arrays,
/// strings with escapes); for anything else, or text it cannot follow, nil, never a guess.
enum RideAnswerScan {
    static func idAndStatus(_ body: ByteBuffer) -> (id: Int, status: String)? {
        body.withUnsafeReadableBytes { bytes -> (id: Int, status: String)? in
            var scanner = Scanner(bytes: bytes)
            var id: Int?, status: String?
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: "{")) else { return nil }
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: "}")) { return nil }
            while true {
                guard let key = scanner.plainString() else { return nil }
                scanner.skipSpace()
                guard scanner.take(UInt8(ascii: ":")) else { return nil }
                scanner.skipSpace()
                if key.elementsEqual("id".utf8) {
                    guard let value = scanner.integer() else { return nil }
                    id = value
                } else if key.elementsEqual("status".utf8) {
                    guard let value = scanner.plainString() else { return nil }
                    status = String(decoding: value, as: UTF8.self)
                } else {
                    guard scanner.skipValue() else { return nil }
                }
                scanner.skipSpace()
                if scanner.take(UInt8(ascii: ",")) {
                    scanner.skipSpace()
                    continue
                }
                guard scanner.take(UInt8(ascii: "}")) else { return nil }
                break
            }
            guard let id, let status else { return nil }
            return (id, status)
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        var current: UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { at += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            at += 1
            return true
        }

        /// A string without escapes: its bytes between the quotes.
        mutating func plainString() -> UnsafeRawBufferPointer.SubSequence? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            while let c = current {
                if c == UInt8(ascii: "\"") {
                    at += 1
                    return bytes[start..<(at - 1)]
                }
                if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
                at += 1
            }
            return nil
        }

        /// An integer: an optional minus and digits, not followed by a fraction or an exponent.
        mutating func integer() -> Int? {
            let negative = take(UInt8(ascii: "-"))
            var value = 0, digits = 0
            while let c = current, (0x30...0x39).contains(c) {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow, digits < 19 else { return nil }
                value = product + Int(c - 0x30)
                digits += 1
                at += 1
            }
            guard digits > 0, current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E") else { return nil }
            return negative ? -value : value
        }

        /// Passes over one value of any kind: strings with their escapes, objects and arrays with what
        /// they hold, numbers and literals up to the next delimiter.
        mutating func skipValue() -> Bool {
            let start = at
            var depth = 0
            while let c = current {
                switch c {
                case UInt8(ascii: "\""):
                    at += 1
                    while true {
                        guard let s = current else { return false }
                        at += 1
                        if s == UInt8(ascii: "\\") {
                            guard current != nil else { return false }
                            at += 1
                        } else if s == UInt8(ascii: "\"") {
                            break
                        }
                    }
                    if depth == 0 { return true }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    at += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return at > start }  // the end of the enclosing object: a number or literal ends
                    depth -= 1
                    at += 1
                    if depth == 0 { return true }
                case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
                    guard depth > 0 else { return at > start }
                    at += 1
                default:
                    at += 1
                }
            }
            return false
        }
    }
}
