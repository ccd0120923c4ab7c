import CGSL
import Testing
@testable import CitySim

/// `RandomStream` runs GSL's mt19937 state through the shim's branchless refill and an inlined
/// `uniform()`. These pin that every draw is the one GSL's own generator gives for the same seed and
/// the same sequence of calls, across many refills of the 624-word state.
@Suite struct FastMersenneTwisterTests {
    /// A plain GSL mt19937 seeded as `stream` was.
    private func gslTwin(of stream: RandomStream) -> UnsafeMutablePointer<gsl_rng> {
        let twin = gsl_rng_alloc(cgsl_rng_mt19937())!
        gsl_rng_set(twin, stream.generatorSeed)
        return twin
    }

    @Test func uniformDrawsAreGSLsOwnBitForBit() {
        for (name, seed) in [("arrivals", UInt64(42)), ("places", 7), ("rides", 0)] {
            let stream = RandomStream(name: name, seed: seed, replication: 3)
            let twin = gslTwin(of: stream)
            defer { gsl_rng_free(twin) }
            var mismatches = 0
            for _ in 0..<20_000 where stream.uniform().bitPattern != gsl_rng_uniform(twin).bitPattern { mismatches += 1 }
            #expect(mismatches == 0, "\(name): \(mismatches) of 20,000 draws differ from GSL's")  // 32 refills
        }
    }

    @Test func distributionsAndIntegersDrawnThroughGSLStayInStep() {
        let stream = RandomStream(name: "mixed", seed: 99, replication: 0)
        let twin = gslTwin(of: stream)
        defer { gsl_rng_free(twin) }
        var mismatches = 0
        for i in 0..<6_000 {
            let (ours, theirs): (Double, Double)
            switch i % 6 {
            case 0: (ours, theirs) = (stream.uniform(), gsl_rng_uniform(twin))
            case 1: (ours, theirs) = (stream.lognormal(mu: 1, sigma: 0.5), gsl_ran_lognormal(twin, 1, 0.5))
            case 2: (ours, theirs) = (Double(stream.uniformInt(below: 1_000)), Double(gsl_rng_uniform_int(twin, 1_000)))
            case 3: (ours, theirs) = (stream.exponential(mean: 90), gsl_ran_exponential(twin, 90))
            case 4: (ours, theirs) = (stream.gamma(shape: 2.5, scale: 3), gsl_ran_gamma(twin, 2.5, 3))
            default: (ours, theirs) = (stream.bernoulli(0.3) ? 1 : 0, Double(gsl_ran_bernoulli(twin, 0.3)))
            }
            if ours.bitPattern != theirs.bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(stream.uniform().bitPattern == gsl_rng_uniform(twin).bitPattern)
    }

    @Test func bernoulliAndLognormalDrawnInSwiftAreGSLsBitForBit() {
        // `bernoulli` and `lognormal` are GSL's algorithms written out in Swift: every draw, and every uniform
        // after them, must be GSL's own, for probabilities at the edges and lognormals of any spread.
        let stream = RandomStream(name: "behaviour", seed: 5, replication: 2)
        let twin = gslTwin(of: stream), ahead = gslTwin(of: stream)
        defer { gsl_rng_free(twin); gsl_rng_free(ahead) }
        let probabilities = [0, 1, 0.3, 0.999_999, 1e-9, 0.5]
        let lognormals: [(mu: Double, sigma: Double)] = [(0, 0), (1, 0.5), (-3, 2), (6.4, 0.05), (0, 8)]
        var mismatches = 0
        for i in 0 ..< 60_000 {
            if i % 2 == 0 {
                let p = probabilities[(i / 2) % probabilities.count]
                if stream.bernoulli(p) != (gsl_ran_bernoulli(twin, p) == 1) { mismatches += 1 }
                _ = gsl_rng_uniform(ahead)
            } else {
                let (mu, sigma) = lognormals[(i / 2) % lognormals.count]
                if stream.lognormal(mu: mu, sigma: sigma).bitPattern != gsl_ran_lognormal(twin, mu, sigma).bitPattern {
                    mismatches += 1
                }
                _ = gsl_ran_lognormal(ahead, mu, sigma)
            }
        }
        #expect(mismatches == 0)
        // A probability equal to the very draw (`ahead` has drawn it already): GSL's rule is `u < p`, so a tie is false.
        let tie = gsl_rng_uniform(ahead)
        #expect(stream.bernoulli(tie) == false)
        #expect(gsl_ran_bernoulli(twin, tie) == 0)
        #expect(stream.lognormal(mean: 600, cv: 0.3).bitPattern
                == gsl_ran_lognormal(twin, RandomStream.lognormalParameters(mean: 600, cv: 0.3).mu,
                                     RandomStream.lognormalParameters(mean: 600, cv: 0.3).sigma).bitPattern)
        #expect(stream.uniform().bitPattern == gsl_rng_uniform(twin).bitPattern)
    }

    @Test func reseedingASwitchedGeneratorSeedsAsGSLDoes() {
        for seed: UInt in [0, 1, 4357, 0xDEAD_BEEF] {
            let fast = gsl_rng_alloc(cgsl_rng_mt19937())!, plain = gsl_rng_alloc(cgsl_rng_mt19937())!
            defer { gsl_rng_free(fast); gsl_rng_free(plain) }
            fast.pointee.type = cgsl_mt19937_fast()
            gsl_rng_set(fast, seed)
            gsl_rng_set(plain, seed)
            var mismatches = 0
            for _ in 0..<1_500 where gsl_rng_get(fast) != gsl_rng_get(plain) { mismatches += 1 }
            #expect(mismatches == 0, "seed \(seed)")
        }
    }
}
