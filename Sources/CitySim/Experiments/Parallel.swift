import Foundation

/// The default number of threads for independent runs: the machine's active cores.
public var defaultParallelJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

/// Runs `body(0..<count)` on `jobs` threads and returns the results in index order (not completion order),
/// so an answer never depends on which thread finished first. Used by plan-fleet and `run --replications`.
/// - Throws: the first error thrown by `body`; the other threads stop taking new indices.
public func parallelMap<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
    let box = ParallelBox<T>(count)
    let group = DispatchGroup()
    for _ in 0..<max(1, min(jobs, count)) {
        group.enter()
        let thread = Thread {
            defer { group.leave() }
            while true {
                let index: Int? = box.lock.withLock {
                    guard box.error == nil, box.next < count else { return nil }
                    box.next += 1
                    return box.next - 1
                }
                guard let index else { return }
                do {
                    let value = try body(index)
                    box.lock.withLock { box.results[index] = value }
                } catch {
                    box.lock.withLock { if box.error == nil { box.error = error } }
                }
            }
        }
        thread.stackSize = 16 << 20
        thread.start()
    }
    group.wait()
    if let error = box.error { throw error }
    return box.results.map { $0! }
}

/// The shared state of `parallelMap`'s threads, guarded by its lock.
private final class ParallelBox<T>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var results: [T?]
    var error: Error?
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
}

/// `body`, run on a thread of its own while the caller goes on; `value()` waits for it and returns what it
/// returned or throws what it threw.
///
/// Invariant: `result` is written once, by the thread, before `done` is signalled; it is read only after.
final class Aside<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, Error>?

    init(_ body: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            result = Result(catching: body)
            done.signal()
        }
        thread.start()
    }

    /// Waits for the thread, then returns its value or throws its error (again on a later call).
    func value() throws -> T {
        done.wait()
        done.signal()
        return try result!.get()
    }
}
