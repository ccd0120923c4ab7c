import Foundation

/// A run's rides handed to a `RideRowsStream` on a helper thread while the loop goes on (`rides.csv`
/// written during the run). The loop hands over the log's sealed records now and then (`hand`); the
/// helper writes the rows it has not written yet, in id order; after the loop the last rows are handed
/// (`finish`) and the helper writes them while the run's thread computes the summary (`wait`).
///
/// Invariants: the stream gets each row once, in id order, and only rows sealed when handed (they no
/// longer change); after a write throws, it gets nothing but `finish(complete: false)`; `wait` returns or
/// throws only once the helper has exited.
final class RidesAside: @unchecked Sendable {
    /// The helper thread's name (`ThreadName`).
    static let threadName = "citysim-rides"

    private let stream: RideRowsStream
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var handed: RideLog.Sealed?
    private var lastHanded = false
    private var stopped = false
    private var failure: Error?
    private var written = 0
    private var exitedFlag = false
    private let exited = DispatchSemaphore(value: 0)
    /// Whether `hand` waits until the helper has written what it handed (tests: each batch is then written
    /// while the records are as they were when handed).
    private let lockstep: Bool

    /// Starts the helper over `stream`, which has started.
    init(_ stream: RideRowsStream, lockstep: Bool = false) {
        self.stream = stream
        self.lockstep = lockstep
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            writeAsHanded()
        }
        thread.start()
    }

    /// The loop's thread: the rows of `sealed` are ready (it supersedes what was handed before).
    func hand(_ sealed: RideLog.Sealed) {
        condition.lock()
        handed = sealed
        condition.broadcast()
        while lockstep && written < sealed.count && !exitedFlag { condition.wait() }
        condition.unlock()
    }

    /// The loop's thread: `sealed` holds every row of the run; the helper writes what is left and finishes.
    func finish(_ sealed: RideLog.Sealed) {
        condition.lock()
        handed = sealed
        lastHanded = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the helper, then throws what the stream threw, if anything.
    func wait() throws {
        exited.wait()
        exited.signal()  // exited still, for a second `wait` or `stop`
        if let failure = condition.withLock({ failure }) { throw failure }
    }

    /// The run failed or was dropped: the helper stops and the stream is told its rows are void.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The helper: writes each newly handed batch until the last, then finishes the stream.
    private func writeAsHanded() {
        var complete = false
        while true {
            condition.lock()
            while !stopped && !lastHanded && (handed?.count ?? 0) <= written { condition.wait() }
            let (sealed, last, stop, from) = (handed, lastHanded, stopped, written)
            condition.unlock()
            if stop { break }
            if let sealed, sealed.count > from {
                do {
                    try stream.write(RunResult.RideRows(records: sealed), from..<sealed.count)
                } catch {
                    condition.withLock { failure = error }
                    break
                }
                condition.withLock {
                    written = sealed.count
                    condition.broadcast()
                }
            }
            if last {
                complete = true
                break
            }
        }
        do {
            try stream.finish(complete: complete)
        } catch {
            condition.withLock { if failure == nil { failure = error } }
        }
        condition.withLock {
            exitedFlag = true
            condition.broadcast()
        }
        exited.signal()
    }
}
