/// Sorting a large sample of `Double`s in linear time, for quantiles.
///
/// Invariant: the result equals `values.sorted()` element for element, bit for bit. A
/// least-significant-digit radix sort on keys that order as the values do (the sign bit
/// flipped for non-negative values, every bit for negative ones) is stable, and distinct
/// keys mean distinct values, so only values that compare equal but differ in bits could
/// come out in another order: `-0.0` against `+0.0`, and NaN, which `<` does not order.
/// Samples holding either fall back to `sorted()`.
///
/// Why: the summary's percentiles sorted ~490,000 waits with the standard library's merge
/// sort, 3–5 % of a city-scale run (perf); this takes six counting passes at most, and
/// skips those whose digit is the same in every key (the sign and most exponent bits).
enum RadixSort {
    /// Below this many values the standard sort is as fast and allocates less.
    static let threshold = 4096

    /// `values` in ascending order, as `values.sorted()` gives them.
    static func sorted(_ values: [Double]) -> [Double] {
        guard values.count >= threshold, var keys = orderedKeys(values) else { return values.sorted() }
        sort(&keys)
        return keys.map(value(of:))
    }

    /// `values` in ascending order with their tags, equal values in their order (the sort is stable); nil
    /// below `threshold` values or when a value is NaN or `-0.0` (the caller then sorts by comparison).
    static func sorted(_ values: [Double], tags: [UInt32]) -> (values: [Double], tags: [UInt32])? {
        guard values.count >= threshold, var keys = orderedKeys(values) else { return nil }
        var tags = tags
        sort(&keys, carrying: &tags)
        return (keys.map(value(of:)), tags)
    }

    /// Keys whose unsigned order is the values' order, or nil if a value is NaN or `-0.0`.
    private static func orderedKeys(_ values: [Double]) -> [UInt64]? {
        var keys = [UInt64](repeating: 0, count: values.count)
        var unordered = false
        keys.withUnsafeMutableBufferPointer { keys in
            for (i, value) in values.enumerated() {
                let bits = value.bitPattern
                unordered = unordered || value.isNaN || bits == negativeZero
                keys[i] = bits & signBit == 0 ? bits | signBit : ~bits
            }
        }
        return unordered ? nil : keys
    }

    private static func value(of key: UInt64) -> Double {
        Double(bitPattern: key & signBit != 0 ? key & ~signBit : ~key)
    }

    private static let signBit: UInt64 = 1 << 63
    private static let negativeZero = (-0.0 as Double).bitPattern
    private static let digitBits = 11
    private static let buckets = 1 << digitBits
    private static let passes = (64 + digitBits - 1) / digitBits

    /// Stable LSD radix sort of `keys`, 11 bits a pass; one counting pass over the keys for all digits.
    private static func sort(_ keys: inout [UInt64]) {
        var none: [UInt32] = []
        sort(&keys, carrying: &none)
    }

    /// `sort(_:)` that moves `tags[i]` along with `keys[i]` (`tags` is empty or as long as `keys`).
    private static func sort(_ keys: inout [UInt64], carrying tags: inout [UInt32]) {
        let n = keys.count
        let carries = !tags.isEmpty
        var counts = [Int](repeating: 0, count: passes * buckets)
        counts.withUnsafeMutableBufferPointer { counts in
            keys.withUnsafeBufferPointer { keys in
                for key in keys {
                    for pass in 0..<passes {
                        counts[pass * buckets + Int(truncatingIfNeeded: key >> UInt64(pass * digitBits)) & (buckets - 1)] += 1
                    }
                }
            }
        }
        var other = [UInt64](repeating: 0, count: n)
        var otherTags = [UInt32](repeating: 0, count: carries ? n : 0)
        for pass in 0..<passes {
            let base = pass * buckets, shift = UInt64(pass * digitBits)
            // A digit shared by every key leaves the order as it is.
            if counts[base + Int(truncatingIfNeeded: keys[0] >> shift) & (buckets - 1)] == n { continue }
            var next = [Int](repeating: 0, count: buckets)
            var total = 0
            for bucket in 0..<buckets {
                next[bucket] = total
                total += counts[base + bucket]
            }
            keys.withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    next.withUnsafeMutableBufferPointer { next in
                        tags.withUnsafeBufferPointer { fromTags in
                            otherTags.withUnsafeMutableBufferPointer { toTags in
                                for (i, key) in from.enumerated() {
                                    let bucket = Int(truncatingIfNeeded: key >> shift) & (buckets - 1)
                                    to[next[bucket]] = key
                                    if carries { toTags[next[bucket]] = fromTags[i] }
                                    next[bucket] += 1
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &other)
            if carries { swap(&tags, &otherTags) }
        }
    }
}
