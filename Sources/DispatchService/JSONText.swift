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

    /// A date as `Date.ISO8601FormatStyle()` writes it in UTC (`2026-11-28T14:00:00Z`, whole seconds, the
    /// fraction dropped), as `JSONEncoder`'s `.iso8601` strategy does; written by hand for the years 1970–9999,
    /// by Foundation's formatter outside them.
    static func iso8601(_ date: Date) -> String {
        let instant = date.timeIntervalSince1970
        guard instant >= 0, instant < 253_402_300_800 else { return date.formatted(.iso8601) }
        let seconds = Int(instant)
        let (days, time) = seconds.quotientAndRemainder(dividingBy: 86_400)
        // Howard Hinnant's civil_from_days, for days since 1970-01-01 (not negative here).
        let z = days + 719_468, era = z / 146_097, dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(unsafeUninitializedCapacity: 20) { text in
            func put(_ value: Int, _ width: Int, at start: Int) {
                var value = value
                for i in (start..<start + width).reversed() {
                    text[i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, 4, at: 0); put(month, 2, at: 5); put(day, 2, at: 8)
            put(time / 3_600, 2, at: 11); put(time / 60 % 60, 2, at: 14); put(time % 60, 2, at: 17)
            for (i, mark) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
                text[i] = UInt8(ascii: mark)
            }
            return 20
        }
    }
}
