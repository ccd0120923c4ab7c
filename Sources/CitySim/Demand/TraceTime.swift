import TripPlanner

/// Times in trip files: a date-time or a number of seconds, read into seconds on one time line.
///
/// Accepted forms:
/// - `YYYY-MM-DD HH:MM:SS` (NYC TLC, DuckDB's CSV export) or ISO 8601 `YYYY-MM-DDTHH:MM:SS`, seconds
///   optional (`HH:MM`), with an optional fraction (`.250`) and an optional zone (`Z`, `+01:00`, `-0500`).
///   The result is seconds since 1970-01-01 00:00 **as written**: a zone suffix is accepted and ignored,
///   so a trace keeps its local day pattern (a 08:00 peak stays at simulated 08:00).
/// - A plain number (`3600`, `12.5`): seconds as they are (since the trace's own origin, or Unix time).
///
/// Invariant: `seconds(_:)` returns a finite number or nil, never traps, whatever the bytes.
enum TraceTime {
    /// The seconds of `text`, or nil when it is neither form.
    static func seconds<Bytes: Collection>(_ text: Bytes) -> Double? where Bytes.Element == UInt8, Bytes.Index == Int {
        let bytes = Array(text)
        guard !bytes.isEmpty else { return nil }
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") { return dateTime(bytes) }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// The seconds of a scenario value such as `"2024-01-15 00:00:00"` or `86400`.
    static func seconds(_ text: String) -> Double? { seconds(Array(text.utf8)) }

    /// Days since 1970-01-01 of a date, or nil for one that does not exist (2024-02-30).
    static func days(year: Int, month: Int, day: Int) -> Int? {
        (try? CivilDate(year: year, month: month, day: day))?.dayNumber
    }

    /// `YYYY-MM-DD[ T]HH:MM[:SS[.fff]][zone]`.
    private static func dateTime(_ b: [UInt8]) -> Double? {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                value = value * 10 + Int(b[i] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let days = days(year: year, month: month, day: day) else { return nil }
        var seconds = Double(days) * 86_400
        guard b.count > 10 else { return seconds }
        guard b[10] == UInt8(ascii: " ") || b[10] == UInt8(ascii: "T"), let hour = number(11, 2),
              b.count > 13, b[13] == UInt8(ascii: ":"), let minute = number(14, 2), hour <= 24, minute <= 59
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        var i = 16
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard let second = number(17, 2), second <= 60 else { return nil }
            seconds += Double(second)
            i = 19
            if i < b.count, b[i] == UInt8(ascii: ".") {
                var scale = 0.1
                i += 1
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    seconds += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        return isZone(b[i...]) ? seconds : nil
    }

    /// Nothing, `Z`, or `±HH[:MM]` / `±HHMM` (accepted, not applied).
    private static func isZone(_ rest: ArraySlice<UInt8>) -> Bool {
        guard let first = rest.first else { return true }
        if rest.count == 1 { return first == UInt8(ascii: "Z") || first == UInt8(ascii: "z") }
        guard first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return false }
        let digits = rest.dropFirst().filter { $0 != UInt8(ascii: ":") }
        return (digits.count == 2 || digits.count == 4) && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
