import DispatchCore

/// The newest checkpoint the host knows of: its sequence, and (when this process took it) how long it
/// took and how many bytes it stored. Sequence 0: none yet.
public struct CheckpointStatus: Sendable, Equatable {
    public var sequence: Int64 = 0
    public var bytes = 0
    /// From taking the state to the end of the log truncation; nil for one found in the store at start.
    public var duration: Duration?
    /// When it was taken or found (monotonic clock), for the time trigger.
    var at = ContinuousClock.now

    public init(sequence: Int64 = 0, bytes: Int = 0, duration: Duration? = nil) {
        self.sequence = sequence
        self.bytes = bytes
        self.duration = duration
    }

    public static func == (a: Self, b: Self) -> Bool {
        (a.sequence, a.bytes, a.duration) == (b.sequence, b.bytes, b.duration)
    }
}

/// When the host takes a checkpoint: once `commands` commands were logged since the last one, or
/// `seconds` real seconds have passed with at least one command logged since. Nil (or 0) = not on that trigger.
public struct CheckpointPolicy: Sendable, Equatable {
    public var commands: Int64?
    public var seconds: Double?

    public init(commands: Int64?, seconds: Double?) {
        self.commands = commands.flatMap { $0 > 0 ? $0 : nil }
        self.seconds = seconds.flatMap { $0 > 0 ? $0 : nil }
    }

    public static let never = CheckpointPolicy(commands: nil, seconds: nil)
}

// MARK: - Checkpoints: the log is cut at a stored snapshot of the host's state

extension DispatchHost {
    /// Takes checkpoints under `policy` from now on (`runCheckpoints`).
    public func checkpoint(under policy: CheckpointPolicy) { checkpointPolicy = policy }

    /// Commands logged after the newest checkpoint (the rows a restart replays).
    public var commandsSinceCheckpoint: Int64 { sequence - lastCheckpoint.sequence }

    /// The newest checkpoint.
    public var checkpointStatus: CheckpointStatus { lastCheckpoint }

    /// Stores the state after the last command applied as a checkpoint, then deletes the log rows
    /// (and older checkpoints) it makes unnecessary.
    ///
    /// The state is taken at once (a consistent copy; commands keep running meanwhile) and stored only
    /// after every command it includes is durable, so a checkpoint never holds a command the log could
    /// still lose; it is encoded off the actor, on a thread of its own at a lower priority (`BackgroundWork`).
    /// Atomic in effect: the checkpoint becomes visible in one transaction, and until the truncation has run
    /// the log rows it covers are still there and a restart skips them.
    /// - Returns: the checkpoint's sequence, or nil when there was nothing new, another checkpoint was
    ///   running, or the host rebuilt meanwhile (after a failed write).
    /// - Throws: the store's errors (nothing changed, or the log is cut less than it could be).
    @discardableResult
    public func checkpoint() async throws -> Int64? {
        guard !checkpointing, !broken, sequence > lastCheckpoint.sequence else { return nil }
        checkpointing = true
        defer { checkpointing = false }
        let started = ContinuousClock.now
        let generation = rebuilds
        let state = try currentState()
        while durableSequence < state.sequence {
            if broken || rebuilds != generation { return nil }
            try await Task.sleep(for: .milliseconds(2))
        }
        let bytes = try await BackgroundWork.run("citysim-ckpt") { try state.encoded() }
        guard !broken, rebuilds == generation else { return nil }
        try await store.saveCheckpoint(StoredCheckpoint(sequence: state.sequence, bytes: bytes))
        lastCheckpoint = CheckpointStatus(sequence: state.sequence, bytes: bytes.count)
        restorableFrom = state.restorableFrom
        try await store.truncateLog(through: state.sequence)
        lastCheckpoint.duration = ContinuousClock.now - started
        metrics?.recordCheckpoint(lastCheckpoint)
        return state.sequence
    }

    /// The checkpoint of a graceful shutdown: once the HTTP server has drained and the timer loop has
    /// stopped, stores the state at the last committed command, so the next start replays no tail.
    /// Nothing when checkpoints are off (`CheckpointPolicy.never`) or nothing was logged since the last one.
    /// - Returns: the checkpoint's sequence, or nil when none was taken.
    /// - Throws: the store's errors (counted as a checkpoint failure; the log is still whole, so the
    ///   next start replays it as after a crash).
    @discardableResult
    public func checkpointAtShutdown() async throws -> Int64? {
        guard checkpointPolicy != .never else { return nil }
        do { return try await checkpoint() } catch {
            metrics?.recordCheckpointFailure()
            throw error
        }
    }

    /// The host's state after the last command applied (durable or not yet).
    func currentState() throws -> HostCheckpoint {
        HostCheckpoint(sequence: sequence, core: core.snapshot,
                       city: core.city == configuredCity ? nil : try CommandCoding.encode(.setCity(core.city)),
                       ledger: ledger, timers: timers)
    }

    /// Whether the policy calls for a checkpoint now.
    var checkpointDue: Bool {
        let logged = commandsSinceCheckpoint
        guard logged > 0 else { return false }
        if let commands = checkpointPolicy.commands, logged >= commands { return true }
        if let seconds = checkpointPolicy.seconds, ContinuousClock.now - lastCheckpoint.at >= .seconds(seconds) { return true }
        return false
    }

    /// Checks once a real second whether a checkpoint is due and takes it, until the task is cancelled.
    public func runCheckpoints() async {
        while !Task.isCancelled {
            if checkpointDue {
                do { try await checkpoint() } catch {
                    metrics?.recordCheckpointFailure()
                    try? await Task.sleep(for: .seconds(10))  // a failing store: do not retry every second
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
