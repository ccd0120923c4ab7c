/// Stable seed arithmetic: the same inputs give the same seed on every
/// machine and in every process (unlike Swift's `Hasher`, which is randomized
/// per process).
enum SeedDerivation {
    /// FNV-1a, 64-bit, over the UTF-8 bytes of `name`.
    static func fnv1a64(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The SplitMix64 output function applied to `value + golden gamma`: a
    /// bijective mixer whose every output bit depends on every input bit.
    static func splitMix64(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The 64-bit seed of stream `name` in replication `replication` of a
    /// scenario seeded with `scenarioSeed`.
    static func streamSeed(scenarioSeed: UInt64, replication: Int, name: String) -> UInt64 {
        var seed = splitMix64(scenarioSeed)
        seed = splitMix64(seed ^ UInt64(bitPattern: Int64(replication)))
        seed = splitMix64(seed ^ fnv1a64(name))
        return seed
    }

    /// `seed` folded to the 32 bits that GSL's mt19937 actually reads
    /// (`gsl_rng_set` keeps only the low 32 bits), so all 64 bits count.
    static func mt19937Seed(_ seed: UInt64) -> UInt {
        UInt((seed ^ (seed >> 32)) & 0xFFFF_FFFF)
    }
}
