import Foundation

/// A CSV file built directly as UTF-8 bytes: numbers are written digit by digit
/// instead of through `String`s joined per row (a callgrind profile of a 2-hour
/// city-scale run spent 632 M instructions, a third of the command, in `ridesCSV`).
///
/// The bytes live in one buffer this value owns alone (it cannot be copied), and each
/// field makes room for its longest form once and then writes through a pointer, two
/// digits at a time: appending byte by byte to an `Array` checked its uniqueness and
/// capacity for every byte (perf, city-scale: 5 % of the run in `int` and `number`).
///
/// Invariants: `number(_:)` writes exactly what `ResultWriter.number(_:)` returns;
/// `bytes[0..<count]` are the bytes written since the last `flush`, and `count <= capacity`.
struct CSVBytes: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// `pairTable`, read through the value: reading the static per field paid its lazy-initialisation check.
    private let pairs = CSVBytes.pairTable
    private let powers = CSVBytes.powerTable
    /// The number of bytes written since the last `flush`.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written since the last `flush`.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Writes the bytes so far to `handle` and forgets them, keeping the buffer for the next chunk.
    mutating func flush(to handle: FileHandle) throws {
        try handle.write(contentsOf: UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            makeRoom(utf8.count)
            (storage + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }

    /// A constant ASCII text (a column's fixed words), copied from its static bytes.
    @inline(__always)
    mutating func ascii(_ value: StaticString) {
        let length = value.utf8CodeUnitCount
        makeRoom(length)
        (storage + count).update(from: value.utf8Start, count: length)
        count += length
    }

    @inline(__always) mutating func comma() { byte(UInt8(ascii: ",")) }
    @inline(__always) mutating func newline() { byte(UInt8(ascii: "\n")) }

    /// A decimal integer.
    mutating func int(_ value: Int) {
        makeRoom(21)
        if UInt(bitPattern: value) < 10 {  // most of a row's counts: one digit
            storage[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            count += 1
            return
        }
        var at = storage + count
        if value < 0 { at.pointee = UInt8(ascii: "-"); at += 1 }
        count = at - storage + Self.digits(value.magnitude, at: at, pairs: pairs, powers: powers)
    }

    /// An angle in degrees with seven decimals (about 1 cm on the ground), e.g. "60.1698557".
    mutating func degrees(_ value: Double) {
        guard value.isFinite else { text(String(value)); return }
        decimals(value, places: 7, scale: 10_000_000)
    }

    /// As `ResultWriter.number`: empty for nil, integers as such, otherwise three decimals.
    mutating func number(_ value: Double?) {
        guard let value else { return }
        guard value.isFinite, abs(value) < 1e15 else { text(String(value)); return }
        let whole = Int(value)  // exact below 1e15: `value == value.rounded()` without a call to libm's round
        if Double(whole) == value { int(whole); return }
        decimals(value, places: 3, scale: 1000)
    }

    /// A finite `value` below 1e15 rounded to `places` decimals (`scale` = 10^`places`), as "%.*f"
    /// writes it, except that a value that rounds to zero has no minus sign.
    @inline(__always)
    private mutating func decimals(_ value: Double, places: Int, scale: Int) {
        let units = UInt(Self.roundedHalfAway(abs(value) * Double(scale)))
        makeRoom(30)
        var at = storage + count
        if value < 0 && units > 0 { at.pointee = UInt8(ascii: "-"); at += 1 }
        #if _endian(little)
        if places == 3, units < 100_000_000 {  // rides.csv's times, places and fares: eight digits at once
            let digits = Self.eightDigits(UInt64(units))  // five of the whole part, zero-padded, then three decimals
            let leadingZeros = min(4, (digits ^ Self.asciiZeros).trailingZeroBitCount &>> 3)
            let bytes = UnsafeMutableRawPointer(at), width = 5 &- leadingZeros
            bytes.storeBytes(of: digits &>> UInt64(leadingZeros &<< 3), as: UInt64.self)
            let decimals = UInt32(truncatingIfNeeded: digits &>> 40) &<< 8 | UInt32(UInt8(ascii: "."))
            bytes.storeBytes(of: decimals, toByteOffset: width, as: UInt32.self)
            count = at + width + 4 - storage
            return
        }
        #endif
        let (whole, fraction) = units.quotientAndRemainder(dividingBy: UInt(scale))
        at += Self.digits(whole, at: at, pairs: pairs, powers: powers)
        at.pointee = UInt8(ascii: ".")
        Self.fixed(fraction, width: places, at: at + 1, pairs: pairs)
        count = at + 1 + places - storage
    }

    /// `Int(x.rounded())` for 0 ≤ x < 2⁶³, without the call to libm's `round`: `x - trunc(x)` is exact, so the
    /// comparison with one half is the one `round` makes (halves away from zero).
    @inline(__always)
    static func roundedHalfAway(_ x: Double) -> Int {
        let whole = Int(x)
        return x - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    /// "00000000" as the eight bytes of a `UInt64`.
    static let asciiZeros: UInt64 = 0x3030_3030_3030_3030

    /// The eight decimal digits of `n` < 10⁸, zero-padded, as ASCII in the bytes of a `UInt64` (the first digit in
    /// the lowest byte, so a little-endian store writes them in order). Every digit at once, in lanes of one
    /// integer (as in Lemire's SWAR conversions): the two halves of four digits in 32-bit lanes, split into
    /// pairs in 16-bit lanes by a multiply-shift that divides by 100, then into digits in 8-bit lanes by one that
    /// divides by 10. ~15 instructions, where two digits at a time took a division and a table load per pair.
    @inline(__always)
    static func eightDigits(_ n: UInt64) -> UInt64 {
        let merged = (n / 10_000) | (n % 10_000) &<< 32
        let hundreds = (merged &* 10_486) &>> 20 & 0x0000_007F_0000_007F
        let pairs = (merged &- hundreds &* 100) &<< 16 &+ hundreds
        let tens = (pairs &* 103) &>> 10 & 0x000F_000F_000F_000F
        return ((pairs &- tens &* 10) &<< 8 &+ tens) | asciiZeros
    }

    /// How many decimal digits `value` has (1 for 0): its bit length gives the count or one less, and one
    /// comparison with a power of ten tells which (`value | 1` has as many digits as `value`, and is not 0).
    @inline(__always)
    static func decimalWidth(_ value: UInt, powers: UnsafePointer<UInt>) -> Int {
        let nonzero = value | 1
        let bits = UInt.bitWidth &- nonzero.leadingZeroBitCount
        let atLeast = (bits &* 1233) &>> 12  // ⌊bits · log₁₀ 2⌋: the digits of 2^(bits-1), or one less
        return atLeast &+ (nonzero >= powers[atLeast] ? 1 : 0)
    }

    /// Writes `value` in decimal without leading zeros at `at` (room for 20 bytes) and returns its width.
    @inline(__always)
    private static func digits(_ value: UInt, at: UnsafeMutablePointer<UInt8>, pairs: UnsafePointer<UInt16>,
                               powers: UnsafePointer<UInt>) -> Int {
        let width = decimalWidth(value, powers: powers)
        fixed(value, width: width, at: at, pairs: pairs)
        return width
    }

    /// The last `width` decimal digits of `value`, zero-padded, at `at`: two at a time from the right, each
    /// pair one 16-bit store.
    @inline(__always)
    private static func fixed(_ value: UInt, width: Int, at: UnsafeMutablePointer<UInt8>, pairs: UnsafePointer<UInt16>) {
        var value = value, end = width
        let bytes = UnsafeMutableRawPointer(at)
        while end >= 2 {
            let (rest, pair) = value.quotientAndRemainder(dividingBy: 100)
            bytes.storeBytes(of: pairs[Int(pair)], toByteOffset: end &- 2, as: UInt16.self)
            value = rest
            end &-= 2
        }
        if end == 1 { at.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10) }
    }

    // MARK: - Writing through the pointer

    @inline(__always)
    private mutating func byte(_ value: UInt8) {
        makeRoom(1)
        storage[count] = value
        count += 1
    }

    /// Makes sure `extra` more bytes fit (the buffer doubles when they do not).
    @inline(__always)
    private mutating func makeRoom(_ extra: Int) {
        if count + extra > capacity { grow(to: max(count + extra, 2 * capacity)) }
    }

    private mutating func grow(to newCapacity: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = newCapacity
    }

    /// "00", "01", … "99": the two digits of every number below 100 as the 16 bits that store them in order
    /// (made once, kept for the process). Written once by its lazy initialiser (which Swift runs once,
    /// thread-safely), only read after.
    nonisolated(unsafe) private static let pairTable: UnsafePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 100)
        for n in 0..<100 {
            let tens = UInt8(ascii: "0") + UInt8(n / 10), ones = UInt8(ascii: "0") + UInt8(n % 10)
            UnsafeMutableRawPointer(table + n).storeBytes(of: tens, as: UInt8.self)
            UnsafeMutableRawPointer(table + n).storeBytes(of: ones, toByteOffset: 1, as: UInt8.self)
        }
        return UnsafePointer(table)
    }()

    /// 10⁰ … 10¹⁹, for `decimalWidth` (made once, like `pairTable`).
    nonisolated(unsafe) private static let powerTable: UnsafePointer<UInt> = {
        let table = UnsafeMutablePointer<UInt>.allocate(capacity: 20)
        var power: UInt = 1
        for k in 0..<20 {
            table[k] = power
            power = power &* 10
        }
        return UnsafePointer(table)
    }()
}
