import Foundation
import Testing
@testable import CitySim
import TestSupport

@Suite("The report's fixed-decimal numbers")
struct FixedDecimalsTests {
    /// Doubles over many scales, ties and near-ties, signs, zeros, subnormals and the edge of exactness.
    static let values: [Double] = {
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.25, 0.125, 0.375, 2.675, 1.005, 0.05, -0.04, -0.05,
                                0.0005, 0.0015, 9.95, 99.95, 999.9995, 0x1p52 + 0.5, 0x1p53 - 1, -(0x1p53 - 1),
                                .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, 123_456_789.125, 86_399.999]
        var random = SplitMix64(seed: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<25_000 {
            let z = random.next()
            let unit = Double(z >> 11) * 0x1p-53
            let scale = [1.0, 10, 100, 1000, 86_400, 1e6, 1e-3, 1e12][Int(z & 7)]
            values.append((unit - 0.3) * scale)
            let d = Double([1, 10, 100, 1000][Int((z >> 3) & 3)])
            values.append(((unit * scale * d).rounded(.down) + 0.5) / d)  // halves of the last decimal, as near as doubles get
            values.append(Double(Int64(z >> 40)) / 8)  // exact binary fractions: true ties for every count of decimals
        }
        return values
    }()

    @Test("fixed decimals are exactly what String(format:) writes", arguments: 0...3)
    func fixedMatchesPrintf(decimals: Int) {
        let differing = Self.values.filter { Fmt.fixed($0, decimals: decimals) != String(format: "%.\(decimals)f", $0) }
        #expect(differing.isEmpty, "first: \(differing.prefix(5).map { ($0, Fmt.fixed($0, decimals: decimals)) })")
    }

    @Test("values fixed decimals cannot write exactly go to String(format:)", arguments: [
        Double.nan, .infinity, -.infinity, 0x1p53, 1e300, -1e20,
    ])
    func fixedFallsBackBeyondExactness(value: Double) {
        #expect(Fmt.fixed(value, decimals: 1) == String(format: "%.1f", value))
        #expect(Fmt.fixed(value, decimals: 5) == String(format: "%.5f", value))
    }

    @Test("a byte in hexadecimal is what %02x writes")
    func hexByteMatchesPrintf() {
        #expect((-3...260).allSatisfy { Fmt.hexByte($0) == String(format: "%02x", $0) })
    }
}
