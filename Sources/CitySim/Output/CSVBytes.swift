import Foundation

/// A CSV file built directly as UTF-8 bytes: numbers are written digit by digit
/// instead of through `String`s joined per row (a callgrind profile of a 2-hour
/// city-scale run spent 632 M instructions, a third of the command, in `ridesCSV`).
///
/// Invariant: `number(_:)` writes exactly what `ResultWriter.number(_:)` returns.
struct CSVBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Writes the bytes so far to `handle` and forgets them, keeping the buffer for the next chunk
    /// (the write holds no reference to it, so no chunk allocates a new one).
    mutating func flush(to handle: FileHandle) throws {
        try handle.write(contentsOf: bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    var count: Int { bytes.count }

    mutating func text(_ value: String) { bytes.append(contentsOf: value.utf8) }
    mutating func comma() { bytes.append(UInt8(ascii: ",")) }
    mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    /// A decimal integer.
    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    /// An angle in degrees with seven decimals (about 1 cm on the ground), e.g. "60.1698557".
    mutating func degrees(_ value: Double) {
        guard value.isFinite else { text(String(value)); return }
        let units = Int((abs(value) * 10_000_000).rounded())
        if value < 0 && units > 0 { bytes.append(UInt8(ascii: "-")) }
        int(units / 10_000_000)
        bytes.append(UInt8(ascii: "."))
        var fraction = units % 10_000_000, scale = 1_000_000
        for _ in 0..<7 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / scale))
            fraction %= scale
            scale /= 10
        }
    }

    /// As `ResultWriter.number`: empty for nil, integers as such, otherwise three decimals.
    mutating func number(_ value: Double?) {
        guard let value else { return }
        guard value.isFinite, abs(value) < 1e15 else { text(String(value)); return }
        if value == value.rounded() { int(Int(value)); return }
        let thousandths = Int((abs(value) * 1000).rounded())
        if value < 0 && thousandths > 0 { bytes.append(UInt8(ascii: "-")) }
        int(thousandths / 1000)
        bytes.append(UInt8(ascii: "."))
        let fraction = thousandths % 1000
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
