import Foundation

extension Scenario {
    /// The scenario re-encoded canonically: JSON with sorted keys, every default filled in, zone size as
    /// `side_km`. It is itself a valid scenario document (JSON is YAML) that loads to an equal `Scenario`.
    public var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of numbers, strings and arrays cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// FNV-1a 64-bit hash of `canonicalJSON`, as 16 lowercase hex digits.
    ///
    /// Two files that decode to the same scenario (whatever their layout, comments or spelled-out
    /// defaults) share it; any change of content changes it. Results record it with the seed.
    /// - Complexity: O(size of the canonical JSON).
    public var canonicalHash: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in canonicalJSON.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
