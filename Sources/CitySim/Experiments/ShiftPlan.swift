import Foundation

/// How many taxis to start in each shift so that the taxis on shift cover the need of every hour of the day.
///
/// A small integer covering problem on the 24-hour cycle: shifts last `shiftHours` and may start at the
/// hours in `starts`; a shift started late in the day covers the early hours of the next (the day repeats).
/// Solved exactly as an integer program by GLPK (`ShiftCoverSolver`); only if GLPK fails, greedily (latest
/// covering start, best of the 24 scan origins, redundant shifts dropped), and then `method` says so.
///
/// Invariant: `coverage[h] >= need[h]` for every hour; `optimal` only when the optimum is proved.
///
/// ```swift
/// let plan = try ShiftPlan(need: need, shiftHours: 8, starts: [6, 14, 22])
/// plan.taxisByStart   // [6: 5, 14: 3, 22: 2]
/// ```
public struct ShiftPlan: Sendable, Equatable, Codable {
    public var shiftHours: Int
    public var starts: [Int]
    /// Taxis needed in each hour 0–23.
    public var need: [Int]
    /// Taxis to start at each allowed start hour (same order as `starts`).
    public var taxisByStart: [Int]
    /// Taxis on shift in each hour 0–23 under the plan; >= `need` everywhere.
    public var coverage: [Int]
    /// Taxis (shifts) in the plan.
    public var total: Int
    /// No plan needs fewer: max(largest hourly need, ceil(total need-hours / shift length)).
    public var lowerBound: Int
    /// The LP relaxation's optimum rounded up (a bound at least as tight), when GLPK solved the plan.
    public var relaxationBound: Int?
    /// `glpk` (exact integer program) or `greedy` (the fallback).
    public var solver: String
    /// Whether `total` is proved minimal.
    public var optimal: Bool
    /// Wall time of the solve, seconds.
    public var solveSeconds: Double
    public var method: String

    /// How to solve the covering problem.
    public enum Solver: Sendable { case exact, greedy }

    /// An hour with need that no allowed shift covers.
    public struct Uncoverable: Error, CustomStringConvertible {
        public var hour: Int
        public var description: String { "no allowed shift covers hour \(hour)" }
    }

    /// - Parameters:
    ///   - need: taxis needed in each hour 0–23 (24 numbers, each >= 0).
    ///   - shiftHours: shift length, 1–24 hours.
    ///   - starts: allowed start hours (0–23); default every hour.
    ///   - solver: `.exact` (GLPK; greedy only if GLPK fails) or `.greedy`.
    /// - Throws: `Uncoverable` when an hour with need > 0 is covered by no allowed shift.
    public init(need: [Int], shiftHours: Int, starts: [Int] = Array(0..<24), solver: Solver = .exact) throws {
        precondition(need.count == 24 && (1...24).contains(shiftHours))
        let starts = Array(Set(starts.map { (($0 % 24) + 24) % 24 })).sorted()
        for hour in 0..<24 where need[hour] > 0 && !starts.contains(where: { (hour - $0 + 24) % 24 < shiftHours }) {
            throw Uncoverable(hour: hour)
        }
        self.shiftHours = shiftHours
        self.starts = starts
        self.need = need
        let needHours = need.reduce(0, +)
        lowerBound = max(need.max() ?? 0, (needHours + shiftHours - 1) / shiftHours)
        var failure: String?
        if solver == .exact {
            do {
                let solution = try ShiftCoverSolver.solve(need: need, shiftHours: shiftHours, starts: starts)
                taxisByStart = solution.taxisByStart
                total = solution.total
                relaxationBound = solution.relaxationBound
                self.solver = "glpk"
                optimal = true
                solveSeconds = solution.seconds
                method = "exact: integer program solved by GLPK branch-and-cut (glp_intopt), optimum \(total) taxis proved "
                    + "(LP relaxation bound \(solution.relaxationBound), simple bound \(lowerBound)) in "
                    + String(format: "%.1f ms", solution.seconds * 1000)
                coverage = Self.coverage(taxisByStart, starts: starts, shiftHours: shiftHours)
                return
            } catch {
                failure = "\(error)"
            }
        }
        let started = Date()
        taxisByStart = Self.greedy(need: need, shiftHours: shiftHours, starts: starts)
        solveSeconds = Date().timeIntervalSince(started)
        total = taxisByStart.reduce(0, +)
        relaxationBound = nil
        self.solver = "greedy"
        optimal = total == lowerBound
        coverage = Self.coverage(taxisByStart, starts: starts, shiftHours: shiftHours)
        method = (failure.map { "greedy fallback (GLPK failed: \($0)); " } ?? "greedy (asked for); ")
            + "latest covering start, best of the 24 scan origins, redundant shifts dropped; "
            + (total == lowerBound ? "optimal: meets the lower bound \(lowerBound)"
                                   : "not proved optimal: lower bound \(lowerBound), so at most \(total - lowerBound) above the optimum")
    }

    /// Taxis on shift in each hour under a plan.
    static func coverage(_ taxisByStart: [Int], starts: [Int], shiftHours: Int) -> [Int] {
        var coverage = Array(repeating: 0, count: 24)
        for (i, start) in starts.enumerated() {
            for h in 0..<shiftHours { coverage[(start + h) % 24] += taxisByStart[i] }
        }
        return coverage
    }

    /// The greedy cover: scanning the hours, a shortfall is filled by starting shifts at the latest allowed start
    /// that covers the hour (optimal for equal-length intervals on a line); the scan is tried from each of the
    /// 24 hours, shifts the others make redundant are dropped, and the smallest total is kept.
    /// - Complexity: O(24 × 24 × starts).
    static func greedy(need: [Int], shiftHours: Int, starts: [Int]) -> [Int] {
        func covers(_ start: Int, _ hour: Int) -> Bool { (hour - start + 24) % 24 < shiftHours }
        var best: (total: Int, counts: [Int])?
        for rotation in 0..<24 {
            var counts = Array(repeating: 0, count: starts.count)
            var coverage = Array(repeating: 0, count: 24)
            for step in 0..<24 {
                let hour = (rotation + step) % 24
                let shortfall = need[hour] - coverage[hour]
                guard shortfall > 0 else { continue }
                // The covering start reached latest in this scan (it reaches furthest ahead).
                let position = { (start: Int) in (start - rotation + 24) % 24 }
                let candidates = starts.indices.filter { covers(starts[$0], hour) }
                let ahead = candidates.filter { position(starts[$0]) <= step }
                let chosen = ahead.max { position(starts[$0]) < position(starts[$1]) }
                    ?? candidates.max { position(starts[$0]) < position(starts[$1]) }!
                counts[chosen] += shortfall
                for h in 0..<shiftHours { coverage[(starts[chosen] + h) % 24] += shortfall }
            }
            // Drop shifts the others make redundant, largest start counts first.
            for i in starts.indices.sorted(by: { counts[$0] > counts[$1] }) {
                while counts[i] > 0, (0..<shiftHours).allSatisfy({ coverage[(starts[i] + $0) % 24] > need[(starts[i] + $0) % 24] }) {
                    counts[i] -= 1
                    for h in 0..<shiftHours { coverage[(starts[i] + h) % 24] -= 1 }
                }
            }
            let total = counts.reduce(0, +)
            if best == nil || total < best!.total { best = (total, counts) }
        }
        return best!.counts
    }
}
