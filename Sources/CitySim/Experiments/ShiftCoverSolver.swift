import CGLPK
import Foundation

/// The shift-covering integer program, solved exactly by GLPK's branch-and-cut (`glp_intopt`):
///
///     minimise Σ_s x_s   subject to   Σ_{s covers h} x_s ≥ need_h  for every hour h,   x_s ≥ 0 integer,
///
/// where `x_s` is the number of taxis starting a shift at allowed start `s`, and a shift covers the
/// `shiftHours` hours from its start around the 24-hour cycle.
///
/// Invariant: a returned solution covers every hour's need and is optimal (GLPK reported `GLP_OPT`).
enum ShiftCoverSolver {
    struct Solution {
        /// Taxis per allowed start, in the order of `starts`.
        var taxisByStart: [Int]
        /// The optimum Σ x_s.
        var total: Int
        /// The LP relaxation's optimum, rounded up: the bound the integer optimum is proved against.
        var relaxationBound: Int
        /// Wall time of the solve, seconds.
        var seconds: Double
    }

    enum Failure: Error, CustomStringConvertible {
        case solver(String)
        var description: String { switch self { case .solver(let why): return why } }
    }

    /// Solves the program with GLPK; one solve at a time (GLPK's environment is process-wide).
    /// - Throws: `Failure` when GLPK does not report an optimal integer solution.
    /// - Complexity: a 24-row, `starts.count`-column integer program; milliseconds in practice.
    static func solve(need: [Int], shiftHours: Int, starts: [Int]) throws -> Solution {
        lock.lock()
        defer { lock.unlock() }
        let started = Date()
        _ = glp_term_out(GLP_OFF)
        guard let problem = glp_create_prob() else { throw Failure.solver("GLPK could not create a problem") }
        defer { glp_delete_prob(problem) }
        glp_set_obj_dir(problem, GLP_MIN)
        _ = glp_add_rows(problem, 24)
        for hour in 0..<24 {
            glp_set_row_bnds(problem, Int32(hour + 1), GLP_LO, Double(need[hour]), 0)
        }
        _ = glp_add_cols(problem, Int32(starts.count))
        // Coefficient triplets, 1-based as GLPK wants them (index 0 unused).
        var rows: [Int32] = [0], columns: [Int32] = [0], values: [Double] = [0]
        for (j, start) in starts.enumerated() {
            let column = Int32(j + 1)
            glp_set_col_kind(problem, column, GLP_IV)
            glp_set_col_bnds(problem, column, GLP_LO, 0, 0)
            glp_set_obj_coef(problem, column, 1)
            for h in 0..<shiftHours {
                rows.append(Int32((start + h) % 24 + 1))
                columns.append(column)
                values.append(1)
            }
        }
        glp_load_matrix(problem, Int32(rows.count - 1), rows, columns, values)

        var simplex = glp_smcp()
        glp_init_smcp(&simplex)
        simplex.msg_lev = GLP_MSG_OFF
        let lpCode = glp_simplex(problem, &simplex)
        guard lpCode == 0, glp_get_status(problem) == GLP_OPT else {
            throw Failure.solver("GLPK's simplex failed (code \(lpCode), status \(glp_get_status(problem)))")
        }
        let relaxation = glp_get_obj_val(problem)
        var branch = glp_iocp()
        glp_init_iocp(&branch)
        branch.msg_lev = GLP_MSG_OFF
        branch.tm_lim = 60_000
        let mipCode = glp_intopt(problem, &branch)
        guard mipCode == 0, glp_mip_status(problem) == GLP_OPT else {
            throw Failure.solver("GLPK's branch-and-cut did not prove an optimum (code \(mipCode), status \(glp_mip_status(problem)))")
        }
        let taxis = starts.indices.map { Int(glp_mip_col_val(problem, Int32($0 + 1)).rounded()) }
        return Solution(taxisByStart: taxis, total: taxis.reduce(0, +),
                        relaxationBound: Int((relaxation - 1e-9).rounded(.up)), seconds: Date().timeIntervalSince(started))
    }

    private static let lock = NSLock()
}
