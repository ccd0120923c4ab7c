import Testing
@testable import DispatchCore
import TestSupport

@Suite("Minimum-cost matching (batch policy)")
struct MinCostMatchingTests {
    /// Brute force: the most matches, then the least total cost.
    static func best(_ rows: [[MinCostMatching.Edge]], row: Int = 0, used: Set<Int> = []) -> (matches: Int, cost: Double) {
        guard row < rows.count else { return (0, 0) }
        var result = best(rows, row: row + 1, used: used)  // leave this row unmatched
        for edge in rows[row] where !used.contains(edge.column) {
            let rest = best(rows, row: row + 1, used: used.union([edge.column]))
            let candidate = (rest.matches + 1, rest.cost + edge.cost)
            if candidate.0 > result.matches || (candidate.0 == result.matches && candidate.1 < result.cost - 1e-9) {
                result = candidate
            }
        }
        return result
    }

    @Test("the Hungarian method finds the maximum matching of least cost, as brute force does")
    func matchesBruteForce() {
        var random = SplitMix64(seed: 42)
        func next() -> UInt64 { random.next() }
        for _ in 0..<300 {
            let rowCount = Int(next() % 6) + 1, columns = Int(next() % 6) + 1
            let rows: [[MinCostMatching.Edge]] = (0..<rowCount).map { _ in
                (0..<columns).filter { _ in next() % 3 != 0 }.map {
                    MinCostMatching.Edge(column: $0, cost: Double(next() % 1000) / 7)
                }
            }
            let matched = MinCostMatching.solve(rows: rows, columns: columns)
            let used = matched.compactMap { $0 }
            #expect(Set(used).count == used.count, "a column matched twice")
            var cost = 0.0
            for (row, column) in matched.enumerated() {
                guard let column else { continue }
                let edge = rows[row].first { $0.column == column }
                #expect(edge != nil, "matched along a missing edge")
                cost += edge?.cost ?? 0
            }
            let optimum = Self.best(rows)
            #expect(used.count == optimum.matches)
            #expect(abs(cost - optimum.cost) < 1e-6, "cost \(cost) vs optimum \(optimum.cost)")
        }
    }
}
