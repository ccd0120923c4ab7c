import DispatchCore

// MARK: - Timers: `.wake` effects become `.timerFired` commands

extension DispatchHost {
    /// Fires every timer due by the clock's current time, earliest first.
    /// - Returns: the due time of the next pending timer, if any.
    @discardableResult
    public func fireDueTimers() async -> Double? {
        let now = clock.now()
        while let first = timers.first, first.due <= now {
            _ = timers.popFirst()
            if isStale(first.timer) { continue }
            do {
                try await execute(.timerFired(first.timer))
            } catch is DispatchError {
                // Stale or refused: the core has moved on; nothing to do.
            } catch {
                timers.insert(first.timer, due: first.due)  // storage failure: try again on the next round
                break
            }
        }
        return timers.first?.due
    }

    /// Runs the timers until the task is cancelled: overdue timers (after a restart) fire
    /// at once, the rest as they fall due. Sleeps at most a real second at a time.
    public func runTimers() async {
        while !Task.isCancelled {
            let next = await fireDueTimers() ?? .infinity
            // Clock seconds until the next timer, slept in real seconds (a scaled clock runs `rate` times faster).
            let delay = min(max(next - clock.now(), 0.001), clock.rate)
            sleepingUntil = clock.now() + delay
            let sleep = Task<Void, Never> { [rate = clock.rate] in try? await Task.sleep(for: .seconds(delay / rate)) }
            sleeper = sleep
            await withTaskCancellationHandler { await sleep.value } onCancel: { sleep.cancel() }
            sleepingUntil = .infinity
        }
    }

    /// A timer of a ride that has ended (or was archived) changes nothing in the core: it is
    /// dropped instead of being fired and logged. (A restart finds it pending again and drops it
    /// again.) At 1,000 rides/s the timers of finished rides alone kept the loop busy committing.
    func isStale(_ timer: TimerID) -> Bool {
        guard timer.kind != .batchEpoch else { return false }
        return core.status(of: timer.request)?.isTerminal ?? true
    }

    /// Archives ended rides once a real second until the task is cancelled (`archiveEndedRides(after:)`),
    /// and once a real minute deletes the archived rides past the retention (`deleteExpiredArchive`);
    /// apart from the timer loop, so a loop busy with due timers does not hold archiving up.
    public func runArchiving() async {
        var lastDeletion: ContinuousClock.Instant?
        while !Task.isCancelled {
            _ = try? await archiveEnded()  // a failed store write: tried again on the next round
            if lastDeletion.map({ ContinuousClock.now - $0 >= .seconds(60) }) ?? true {
                _ = try? await deleteExpiredArchive()  // likewise
                lastDeletion = .now
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// The due times of the pending timers (tests, diagnostics).
    public var pendingTimers: [(due: Double, timer: TimerID)] { timers.timers.sorted { $0.due < $1.due } }

    /// Queues the wake-ups among `effects`; wakes the timer loop if one is earlier than its sleep.
    func schedule(_ effects: [Effect]) {
        for case .wake(let due, let timer) in effects {
            timers.insert(timer, due: due)
            if due < sleepingUntil { sleeper?.cancel() }
        }
        dropStaleTimersIfGrown()
    }

    /// Drops the pending timers of ended (or archived) rides once the queue has grown to twice
    /// what the last sweep left plus 1,024. They would be dropped unfired when due anyway
    /// (`isStale`), but a D9 deadline can be an hour away, so at 1,000 rides/s they piled up
    /// (180,655 pending after 28 min of the 35-minute soak, rising).
    ///
    /// Bound: the queue holds at most about twice the timers of open rides (and batch epochs)
    /// plus 1,024. Ended is final, so a dropped timer would never have fired anything.
    /// - Complexity: amortized O(1) per scheduled timer; a sweep is O(pending timers).
    func dropStaleTimersIfGrown() {
        guard timers.count >= 2 * timersAfterSweep + 1024 else { return }
        timers.removeAll(where: isStale)
        timersAfterSweep = timers.count
    }
}
