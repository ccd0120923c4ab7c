/// A calendar day (proleptic Gregorian), without time zone: the day a plan is for.
///
/// Times within the day are seconds since its midnight (`Double`), the planner's clock.
///
/// ```swift
/// let day = try CivilDate(parsing: "2025-03-14")   // a Friday
/// day.weekday == .friday
/// ```
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// - Throws: `PlannerError.invalidInput` for a day that does not exist.
    public init(year: Int, month: Int, day: Int) throws(PlannerError) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            throw .invalidInput("no such date \(year)-\(month)-\(day)")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` or the GTFS form `YYYYMMDD`.
    public init(parsing text: String) throws(PlannerError) {
        let digits = text.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy(\.isASCII), let value = Int(digits),
              text.count == 8 || (text.count == 10 && Array(text)[4] == "-" && Array(text)[7] == "-")
        else { throw .invalidInput("expected a date YYYY-MM-DD, got '\(text)'") }
        try self.init(year: value / 10_000, month: value / 100 % 100, day: value % 100)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((dayNumber % 7) + 7 + 3) % 7   // 0 = Monday
        return Weekday.allCases[index]
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    /// `YYYY-MM-DD`, the year zero-padded to four digits (`0366-02-26`), so the text parses back.
    public var description: String {
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return n >= 0 && digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try CivilDate(parsing: text)
    }
}

/// Days of the week, Monday first (ISO 8601).
public enum Weekday: String, CaseIterable, Sendable, Codable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday
}

/// Clock times of the planner: seconds since midnight.
public enum ClockTime {
    /// Parses `HH:MM` or `HH:MM:SS` (hours may exceed 23, as in GTFS) into seconds.
    public static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let n = Int(part), n >= 0 else { return nil }
            numbers.append(n)
        }
        guard numbers[1] < 60, numbers.count == 2 || numbers[2] < 60 else { return nil }
        return Double(numbers[0] * 3600 + numbers[1] * 60 + (numbers.count == 3 ? numbers[2] : 0))
    }

    /// `HH:MM` of a time in seconds (rounded to the minute).
    public static func format(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }
}

/// Why the planner refused its input.
public enum PlannerError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidInput(String)
    public var description: String {
        switch self {
        case .invalidInput(let reason): return reason
        }
    }
}
