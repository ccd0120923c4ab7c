import Foundation

/// The report's numbers with a fixed count of decimals, written without `String(format:)`: Foundation's
/// formatter (a C varargs call per number, a conformance lookup per argument, an `NSString` per result) was
/// 39 M instructions of the grid city's 1,419 M, for ~12,000 numbers (callgrind).
///
/// Invariant: `fixed(value, decimals: d)` is exactly `String(format: "%.<d>f", value)` for every finite
/// `value` and `d` in 0...3: the digits of the value's exact binary expansion rounded to nearest, ties to
/// even (as glibc's printf rounds), with a minus sign whenever the sign bit is set (so "-0.0" as printf
/// writes it). Values of 2⁵³ and more, and other counts of decimals, go to `String(format:)` itself.
extension Fmt {
    /// `String(format: "%.<decimals>f", value)`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 0x1p53, (0...3).contains(decimals) else {
            return String(format: "%.\(decimals)f", value)
        }
        let scale: UInt64 = decimals == 0 ? 1 : decimals == 1 ? 10 : decimals == 2 ? 100 : 1000
        let units = roundedUnits(abs(value), scale: scale)
        var text = value.sign == .minus ? "-" : ""
        text += String(units / scale)
        guard decimals > 0 else { return text }
        let fraction = String(units % scale)
        return text + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// `magnitude · scale` rounded to the nearest integer, ties to even, computed exactly: the magnitude is
    /// `significand · 2^exponent` with an integer significand below 2⁵³, so `significand · scale` (below 2⁶³
    /// for a scale up to 1000) is exact, and the shift right by `-exponent` keeps its remainder for the tie.
    static func roundedUnits(_ magnitude: Double, scale: UInt64) -> UInt64 {
        let bits = magnitude.bitPattern
        let biased = Int((bits >> 52) & 0x7FF), fraction = bits & (1 << 52 - 1)
        // A normal number's significand has its leading 1; a subnormal's exponent is that of the smallest normal.
        let significand = biased == 0 ? fraction : fraction | 1 << 52
        let exponent = (biased == 0 ? 1 : biased) - 1075
        let scaled = significand * scale
        if exponent >= 0 { return scaled << UInt64(exponent) }
        let shift = -exponent
        guard shift < 64 else { return 0 }  // below 2⁶³ / 2⁶⁴: under one half
        let whole = scaled >> UInt64(shift), rest = scaled & (1 << UInt64(shift) - 1)
        let half: UInt64 = 1 << UInt64(shift - 1)
        return rest > half || (rest == half && whole & 1 == 1) ? whole + 1 : whole
    }

    /// `String(format: "%02x", value)` for 0...255: two lower-case hexadecimal digits.
    static func hexByte(_ value: Int) -> String {
        guard (0...255).contains(value) else { return String(format: "%02x", value) }
        func digit(_ d: Int) -> Character { Character(Unicode.Scalar(UInt8(d < 10 ? 48 + d : 87 + d))) }
        return String([digit(value >> 4), digit(value & 15)])
    }
}
