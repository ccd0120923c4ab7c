@testable import CitySim
import TestSupport
import Testing

@Suite("Radix sort for quantiles")
struct RadixSortTests {
    /// Waits-like samples: many exact repeats (whole seconds), fractions, a long tail, zeros.
    private func waits(count: Int, seed: UInt64) -> [Double] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            switch i % 4 {
            case 0: return Double(Int.random(in: 0...600, using: &random))
            case 1: return Double.random(in: 0..<1, using: &random) * 3600
            case 2: return 0
            default: return -Double.random(in: 0..<1e9, using: &random).squareRoot()
            }
        }
    }

    @Test("large samples come out exactly as the standard sort orders them", arguments: [4096, 10_000, 250_000])
    func largeSamplesMatchTheStandardSort(count: Int) {
        let values = waits(count: count, seed: UInt64(count))
        let radix = RadixSort.sorted(values), standard = values.sorted()
        #expect(radix.map(\.bitPattern) == standard.map(\.bitPattern))
    }

    @Test("extremes order as doubles do: infinities, subnormals, the largest finite values")
    func extremesOrderAsDoublesDo() {
        var values = waits(count: 5000, seed: 7)
        values += [.infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                   .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-300, -1e300]
        #expect(RadixSort.sorted(values).map(\.bitPattern) == values.sorted().map(\.bitPattern))
    }

    @Test("NaN and negative zero fall back to the standard sort, which keeps equal values in input order")
    func unorderedValuesFallBack() {
        var withZeros = waits(count: 5000, seed: 9)
        withZeros[10] = -0.0  // compares equal to the +0.0 around it: the standard sort keeps input order
        #expect(RadixSort.sorted(withZeros).map(\.bitPattern) == withZeros.sorted().map(\.bitPattern))
        var withNaN = waits(count: 5000, seed: 11)
        withNaN[20] = .nan
        #expect(RadixSort.sorted(withNaN).map(\.bitPattern) == withNaN.sorted().map(\.bitPattern))
    }
}
