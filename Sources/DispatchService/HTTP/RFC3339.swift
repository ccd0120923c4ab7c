import Foundation

/// The two RFC 3339 (§5.6) forms the OpenAPI document names: `format: date-time` and `format: date`.
///
/// Invariant: a text is accepted exactly when it is the RFC 3339 production the document promises, as
/// JSON Schema validators read it: `date-time` is `full-date "T" full-time` with `T`/`t`, `Z`/`z` or a
/// `±HH:MM` offset (`-00:00` included), a fraction of any number of digits, and second `60` only at a
/// leap second (23:59:60 in UTC, after the offset); `date` is `YYYY-MM-DD` with the day inside its
/// month (leap years counted), years 0000–9999. Nothing else: no space for `T`, no `+0530`, no missing
/// seconds, no `YYYYMMDD`.
///
/// ```swift
/// RFC3339.dateTime("2025-03-14t10:00:00.5+01:00")   // 2025-03-14 09:00:00.5 UTC
/// RFC3339.fullDate("2024-02-29")                     // (2024, 2, 29)
/// ```
enum RFC3339 {
    /// The instant of a `date-time` text; a leap second is the instant after 23:59:59 UTC. Nil when the
    /// text is not the production.
    /// - Complexity: O(n) in the text's length.
    static func dateTime(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let date = scanner.fullDate(), scanner.take("T") || scanner.take("t"),
              let hour = scanner.number(digits: 2), hour <= 23, scanner.take(":"),
              let minute = scanner.number(digits: 2), minute <= 59, scanner.take(":"),
              let second = scanner.number(digits: 2), second <= 60 else { return nil }
        var fraction = 0.0
        if scanner.take(".") {
            guard let digits = scanner.digits(), !digits.isEmpty else { return nil }
            fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
        }
        var offsetMinutes = 0
        if !(scanner.take("Z") || scanner.take("z")) {
            let sign: Int
            if scanner.take("+") { sign = 1 } else if scanner.take("-") { sign = -1 } else { return nil }
            guard let hours = scanner.number(digits: 2), hours <= 23, scanner.take(":"),
                  let minutes = scanner.number(digits: 2), minutes <= 59 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard scanner.atEnd else { return nil }
        let day = Self.daysSince1970(year: date.year, month: date.month, day: date.day)
        let minuteOfDay = hour * 60 + minute - offsetMinutes
        if second == 60 {
            // A leap second is only ever 23:59:60 UTC.
            guard ((minuteOfDay % 1_440) + 1_440) % 1_440 == 1_439 else { return nil }
        }
        let seconds = Double(day) * 86_400 + Double(minuteOfDay) * 60 + Double(second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Year, month and day of a `date` text (`full-date`); nil when it is not the production.
    static func fullDate(_ text: String) -> (year: Int, month: Int, day: Int)? {
        var scanner = Scanner(Array(text.utf8))
        guard let date = scanner.fullDate(), scanner.atEnd else { return nil }
        return date
    }

    /// Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads ASCII bytes left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` ASCII digits as a number.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }

        /// The run of ASCII digits at the current position (possibly empty).
        mutating func digits() -> ArraySlice<UInt8>? {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }

        mutating func fullDate() -> (year: Int, month: Int, day: Int)? {
            guard let year = number(digits: 4), take("-"), let month = number(digits: 2), (1...12).contains(month),
                  take("-"), let day = number(digits: 2), day >= 1, day <= RFC3339.daysIn(month: month, year: year)
            else { return nil }
            return (year, month, day)
        }
    }
}
