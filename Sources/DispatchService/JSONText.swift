import Foundation

/// JSON fragments written by hand, byte for byte as `JSONEncoder` writes them, for the two
/// encodings done once per ride request: the command log entry and the ride body.
/// Tests compare both with `JSONEncoder`'s output.
///
/// ```swift
/// JSONText.number(1.0)          // 1
/// JSONText.number(.infinity)    // nil (the caller decides: the log writes "inf", a response refuses)
/// try JSONText.string("TX-1")   // "TX-1"
/// ```
enum JSONText {
    /// A finite number as `JSONEncoder` writes it: Swift's shortest round-trip form without a
    /// trailing ".0"; nil for infinities and NaN.
    static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A string with its quotes. Letters, digits, space, `-`, `_` and `.` are written as they are;
    /// anything else (rare: taxi codes are short codes) goes through `JSONEncoder`, so its
    /// escaping (`\/`, `\u0001`, …) is exactly the encoder's.
    static func string(_ value: String) throws -> String {
        let plain = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"),
                 UInt8(ascii: "."): true
            default: false
            }
        }
        if plain { return "\"" + value + "\"" }
        return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}
