import CitySim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Long CPU work of the service's upkeep (encoding a checkpoint: over a second for 150,000 rides) run on a
/// thread of its own, outside Swift's cooperative pool, at a lower scheduling priority (nice 10 on Linux).
///
/// On a detached task the work held one of the pool's threads (two on a 2-core machine) for its whole
/// length, so the host actor, the ride inbox's drainer and the store's awaits had one thread left, and the
/// rides answered meanwhile waited behind it: the checkpoint every 100,000 commands was the p99 at
/// 5,000 rides/s. The kernel now runs the request path first and the work in what CPU is left.
///
/// Invariant: `run` returns (or throws) exactly what `work` did, once, after `work` has ended.
enum BackgroundWork {
    /// The nice value the work runs at (higher is lower priority).
    static let niceness: Int32 = 10

    static func run<T: Sendable>(_ name: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                ThreadName.setCurrent(name)  // from inside: a thread starts with its creator's name
                lowerPriority()
                continuation.resume(with: Result { try work() })
            }
            thread.start()
        }
    }

    /// Lowers the calling thread's priority to `niceness`; never raises it. On Linux the nice value belongs to
    /// the thread, and `who` 0 with `PRIO_PROCESS` names the calling thread alone (setpriority(2), NOTES).
    static func lowerPriority() {
        #if os(Linux)
        let thread: id_t = 0
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
        if errno == 0 && current < niceness {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, niceness)
        }
        #endif
    }

    /// The calling thread's nice value (Linux; 0 elsewhere).
    static func currentNiceness() -> Int32 {
        #if os(Linux)
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
        return 0
        #endif
    }
}
