import DispatchCore
import NIOCore

/// A fast reader for the body of `POST /v1/rides` in its usual form:
/// `{"origin":{"x":N,"y":N},"destination":{"x":N,"y":N}}`, optionally with `"patience_s":N`,
/// keys in any order, JSON whitespace anywhere. Decoding it with `JSONDecoder` (snake_case key
/// conversion) was the largest piece of the service's own CPU per ride request (about 9 %).
///
/// Invariant: `read` returns a value only for a body `JSONDecoder` decodes to the same value;
/// for anything else (another key or key spelling, a duplicate, `null`, a string, an escape, a
/// number JSON does not allow or that does not fit a finite double, trailing bytes) it returns
/// nil, and the caller decodes with `JSONDecoder`, which gives the answer or the usual error.
enum RideRequestReader {
    static func read(_ buffer: ByteBuffer) -> RideController.RideRequest? {
        buffer.withUnsafeReadableBytes { bytes in
            var reader = Cursor(bytes: bytes)
            return reader.rideRequest()
        }
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        mutating func rideRequest() -> RideController.RideRequest? {
            var origin: Point?, destination: Point?, patience: Double?
            guard take(UInt8(ascii: "{")) else { return nil }
            repeat {
                switch key() {
                case "origin" where origin == nil: guard let p = point() else { return nil }; origin = p
                case "destination" where destination == nil: guard let p = point() else { return nil }; destination = p
                case "patience_s" where patience == nil: guard let n = number() else { return nil }; patience = n
                default: return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), let origin, let destination else { return nil }
            skipSpace()
            guard at == bytes.count else { return nil }
            return RideController.RideRequest(origin: origin, destination: destination, patienceS: Omittable(wrappedValue: patience))
        }

        /// `{"x":N,"y":N}` in either order.
        mutating func point() -> Point? {
            var x: Double?, y: Double?
            guard take(UInt8(ascii: "{")) else { return nil }
            repeat {
                switch key() {
                case "x" where x == nil: guard let n = number() else { return nil }; x = n
                case "y" where y == nil: guard let n = number() else { return nil }; y = n
                default: return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), let x, let y else { return nil }
            var point = Point(Position(x: 0, y: 0))
            point.x = x
            point.y = y
            return point
        }

        /// A key of plain ASCII letters, digits and `_` and its colon.
        mutating func key() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                let c = bytes[at]
                guard (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 95 || (c >= 65 && c <= 90) else { return nil }
                at += 1
            }
            guard at < bytes.count else { return nil }
            let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            at += 1
            return take(UInt8(ascii: ":")) ? key : nil
        }

        /// A number in JSON's grammar, `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, that is a finite double.
        mutating func number() -> Double? {
            skipSpace()
            let start = at
            if peek(UInt8(ascii: "-")) { at += 1 }
            if peek(UInt8(ascii: "0")) { at += 1 } else { guard digits() > 0 else { return nil } }
            if peek(UInt8(ascii: ".")) { at += 1; guard digits() > 0 else { return nil } }
            if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
                at += 1
                if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { at += 1 }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else { return nil }
            return value
        }

        mutating func digits() -> Int {
            let start = at
            while at < bytes.count, bytes[at] >= 48, bytes[at] <= 57 { at += 1 }
            return at - start
        }

        func peek(_ c: UInt8) -> Bool { at < bytes.count && bytes[at] == c }

        /// Skips whitespace, then takes `c` if it is next.
        mutating func take(_ c: UInt8) -> Bool {
            skipSpace()
            guard peek(c) else { return false }
            at += 1
            return true
        }

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 32 || bytes[at] == 9 || bytes[at] == 10 || bytes[at] == 13 { at += 1 }
        }
    }
}
