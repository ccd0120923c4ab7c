import CGSL
import Foundation

/// One named, seeded source of random numbers: a GSL mt19937 generator.
///
/// The generator is seeded by GSL's own mt19937, then switched to the shim's `cgsl_mt19937_fast`: the
/// same state and the same numbers, refilled without GSL's mispredicted branch, and `uniform()` inlined
/// rather than called through GSL's function pointers (`RandomStreamTests` compares the two bit for bit).
///
/// Every random draw of the city model goes through a `RandomStream`, one per
/// model component, so changing how one component draws does not shift the
/// numbers another component sees.
///
/// Invariants: the stream owns exactly one `gsl_rng`, allocated in `init` and
/// freed in `deinit`; its state depends only on (`scenarioSeed`,
/// `replication`, `name`) and the draws made so far, never on the process,
/// the machine or other streams.
///
/// Not thread-safe: a stream belongs to one simulation run.
///
/// ```swift
/// let arrivals = RandomStream(name: "arrivals", seed: 42, replication: 0)
/// let gap = arrivals.exponential(mean: 90)   // seconds
/// ```
public final class RandomStream {
    /// GSL aborts the process on errors unless told otherwise; done once per process.
    static let disableGSLErrorHandler: Void = { _ = gsl_set_error_handler_off() }()

    /// The component this stream serves, e.g. `"arrivals"`.
    public let name: String
    /// The scenario seed the stream was derived from.
    public let scenarioSeed: UInt64
    /// The replication index the stream was derived for.
    public let replication: Int
    /// The seed handed to `gsl_rng_set` (32 bits: all mt19937 reads).
    public let generatorSeed: UInt

    @usableFromInline let generator: UnsafeMutablePointer<gsl_rng>
    /// The last `lognormal(mean:cv:)` parameters and their (mu, sigma): a stream draws from one or two such
    /// distributions (a response time, a noise), so the logarithms are worked out once, not every draw.
    @usableFromInline var lastLognormal: (mean: Double, cv: Double, mu: Double, sigma: Double) = (.nan, .nan, 0, 0)

    /// Creates the stream `name` of replication `replication` of a scenario seeded with `seed`.
    ///
    /// The generator seed is derived with FNV-1a 64 of the name and SplitMix64
    /// mixing, so it is stable across processes and machines.
    public init(name: String, seed: UInt64, replication: Int) {
        _ = Self.disableGSLErrorHandler
        self.name = name
        self.scenarioSeed = seed
        self.replication = replication
        let derived = SeedDerivation.streamSeed(scenarioSeed: seed, replication: replication, name: name)
        generatorSeed = SeedDerivation.mt19937Seed(derived)
        guard let generator = gsl_rng_alloc(cgsl_rng_mt19937()) else {
            fatalError("gsl_rng_alloc failed: out of memory")
        }
        gsl_rng_set(generator, generatorSeed)
        precondition(generator.pointee.type.pointee.size == MemoryLayout<cgsl_mt_state>.size,
                     "GSL's mt19937 state is not the layout the shim's generator reads")
        generator.pointee.type = cgsl_mt19937_fast()
        self.generator = generator
    }

    deinit {
        gsl_rng_free(generator)
    }

    // MARK: - Uniform

    /// A uniform draw from [0, 1).
    @inlinable
    public func uniform() -> Double {
        cgsl_mt_uniform(generator)
    }

    /// A uniform draw from `range` (lower bound included, upper excluded).
    ///
    /// - Precondition: both bounds finite.
    @inlinable
    public func uniform(in range: Range<Double>) -> Double {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "uniform(in:) needs finite bounds")
        return gsl_ran_flat(generator, range.lowerBound, range.upperBound)
    }

    /// A uniform integer from `0 ..< bound`.
    ///
    /// - Precondition: `0 < bound <= UInt32.max` (mt19937 yields 32 bits).
    @inlinable
    public func uniformInt(below bound: Int) -> Int {
        precondition(bound > 0 && bound <= Int(UInt32.max), "uniformInt(below:) needs 0 < bound <= 2^32-1, got \(bound)")
        return Int(gsl_rng_uniform_int(generator, UInt(bound)))
    }

    /// `true` with probability `p`.
    ///
    /// - Precondition: `0 <= p <= 1`.
    @inlinable
    public func bernoulli(_ p: Double) -> Bool {
        precondition(p >= 0 && p <= 1, "bernoulli needs 0 <= p <= 1, got \(p)")
        // GSL's `gsl_ran_bernoulli` (randist/bernoulli.c), inlined: one uniform draw, true when below `p`. The
        // call into libgsl, through its function pointers to the draw, was ~60 instructions a draw; two a
        // driver's offer (`FastMersenneTwisterTests` pins the draws to GSL's own, bit for bit).
        return uniform() < p
    }

    // MARK: - Continuous and count distributions

    /// An exponential draw with the given **mean** (not rate).
    ///
    /// - Precondition: `mean > 0` and finite.
    @inlinable
    public func exponential(mean: Double) -> Double {
        precondition(mean > 0 && mean.isFinite, "exponential needs a positive finite mean, got \(mean)")
        return gsl_ran_exponential(generator, mean)
    }

    /// A Poisson count with the given mean.
    ///
    /// - Precondition: `mean >= 0` and finite.
    @inlinable
    public func poisson(mean: Double) -> Int {
        precondition(mean >= 0 && mean.isFinite, "poisson needs a non-negative finite mean, got \(mean)")
        return Int(gsl_ran_poisson(generator, mean))
    }

    /// A lognormal draw: `exp(N(mu, sigma²))`.
    ///
    /// - Precondition: `sigma >= 0`, both finite.
    @inlinable
    public func lognormal(mu: Double, sigma: Double) -> Double {
        precondition(mu.isFinite && sigma >= 0 && sigma.isFinite, "lognormal needs finite mu and sigma >= 0")
        return lognormalDraw(zeta: mu, sigma: sigma)
    }

    /// GSL's `gsl_ran_lognormal` (randist/lognormal.c) step for step, inlined: a normal by the polar method
    /// from two uniforms, redrawn outside the unit circle, then `exp(sigma * normal + zeta)`, with the same
    /// libm `log` and `exp` and the same order of operations, so the same numbers as GSL's, bit for bit
    /// (`FastMersenneTwisterTests`), without its calls through function pointers for each uniform.
    @inlinable
    func lognormalDraw(zeta: Double, sigma: Double) -> Double {
        var u: Double, v: Double, r2: Double
        repeat {
            u = -1 + 2 * uniform()
            v = -1 + 2 * uniform()
            r2 = u * u + v * v
        } while r2 > 1.0 || r2 == 0
        let normal = u * (-2.0 * log(r2) / r2).squareRoot()
        return exp(sigma * normal + zeta)
    }

    /// A lognormal draw parameterised by its own mean and coefficient of variation.
    ///
    /// Uses `sigma² = ln(1 + cv²)` and `mu = ln(mean) − sigma²/2`.
    ///
    /// - Precondition: `mean > 0`, `cv >= 0`, both finite.
    @inlinable
    public func lognormal(mean: Double, cv: Double) -> Double {
        precondition(mean > 0 && mean.isFinite && cv >= 0 && cv.isFinite, "lognormal needs mean > 0 and cv >= 0")
        if mean != lastLognormal.mean || cv != lastLognormal.cv {
            let (mu, sigma) = Self.lognormalParameters(mean: mean, cv: cv)
            lastLognormal = (mean, cv, mu, sigma)
        }
        return lognormalDraw(zeta: lastLognormal.mu, sigma: lastLognormal.sigma)
    }

    /// The (mu, sigma) of the lognormal whose mean is `mean` and coefficient of variation `cv`.
    @inlinable
    public static func lognormalParameters(mean: Double, cv: Double) -> (mu: Double, sigma: Double) {
        let variance = log1p(cv * cv)
        return (log(mean) - variance / 2, variance.squareRoot())
    }

    /// A gamma draw with the given shape `k` and scale `θ` (mean `kθ`).
    ///
    /// - Precondition: `shape > 0`, `scale > 0`, both finite.
    @inlinable
    public func gamma(shape: Double, scale: Double) -> Double {
        precondition(shape > 0 && shape.isFinite && scale > 0 && scale.isFinite, "gamma needs positive finite shape and scale")
        return gsl_ran_gamma(generator, shape, scale)
    }
}
