import DispatchCore
import Tracing

/// Why the host could not carry out a command that the core itself did not refuse.
public enum HostError: Error, Sendable, CustomStringConvertible {
    /// The store failed; nothing of the command was kept. The host is rebuilding from the store.
    case storageUnavailable(String)

    public var description: String {
        switch self {
        case .storageUnavailable(let why): return "storage unavailable: \(why)"
        }
    }
}

/// The single owner of the service's `DispatchCore`.
///
/// Every command is applied at the current time of the injected clock, logged
/// to the store, and only answered once durable (group commit: commands that
/// arrive while a write is in flight go into the next one; with `delayCommits(by:)`, a busy host also
/// waits a moment before each round so that more commands share it). Ride requests from an event loop come
/// through the inbox instead (`submitRide`, no task each): the host applies all the rides waiting there in
/// one turn, commits them together (with those that came during a commit delay's pause), and answers each
/// by callback once durable. `.wake` effects
/// become timers that send `.timerFired` back; effects are published to the
/// parties' event streams once durable. On start the host loads the store's newest
/// checkpoint (`HostCheckpoint`; a fresh core when there is none) and replays the
/// commands logged after it at the logged times, which rebuilds drivers, queues,
/// open rides, reservations and pending timers, then leaves out of memory the rides
/// the store has archived (`archiveEnded`). Checkpoints are taken by `checkpoint()`
/// (every N commands or T seconds with `runCheckpoints`), which then cuts the log. Each command
/// runs in a `dispatch.<op>` span and each commit in a `store.commit` span of the
/// injected tracer (see `CommandTrace`).
///
/// ```swift
/// let host = try await DispatchHost(store: store, clock: SystemClock()) { try scenario.makeDispatchCore() }
/// let timers = Task { await host.runTimers() }       // fires overdue timers at once, then as they fall due
/// let effects = try await host.execute(.setAvailable(DriverID(1), true))
/// ```
public actor DispatchHost {
    let store: any DispatchStore
    let clock: any ServiceClock
    let makeCore: @Sendable () throws -> DispatchCore
    /// The city `makeCore` builds (a checkpoint stores the city only when `setCity` changed it).
    let configuredCity: CityGeometry
    var core: DispatchCore
    var ledger = RideLedger()
    var timers = TimerQueue()
    var subscribers: [Party: [Int: AsyncStream<ServiceEvent>.Continuation]] = [:]
    var nextSubscriber = 0
    /// Each subscribed party's latest events, for `Last-Event-ID` resumes.
    var replay = EventReplay()
    /// The timer loop's current sleep, cancelled when an earlier timer arrives.
    var sleeper: Task<Void, Never>?
    var sleepingUntil = Double.infinity
    /// Timers pending after the last sweep of ended rides' timers (`dropStaleTimersIfGrown`).
    var timersAfterSweep = 0
    /// Where command-log commits are counted and timed; nil = not measured.
    var metrics: ServiceMetrics?
    /// Receives the `dispatch.<op>` and `store.commit` spans (a no-op unless a tracer is bootstrapped or given).
    let tracer: any Tracer
    /// Ended rides leave memory this many seconds after they end (nil: never); see `archiveEnded`.
    var archiveAfter: Double?
    var archiving = false
    /// Archived rides are deleted this long (service clock) after they end (nil: kept for ever); see `deleteExpiredArchive`.
    var archiveRetention: Double?
    /// Archived rides the retention has deleted since this host started (`deleteExpiredArchive`).
    var archiveRidesDeleted = 0
    /// `HostCheckpoint.restorableFrom` of the newest checkpoint; nil when there is none (a restart replays
    /// the whole log, so any ride may come back and retention deletes nothing).
    var restorableFrom: Double?
    /// Rides in the store's archive, by state (not held in memory).
    public internal(set) var archivedCounts: [RequestStatus: Int] = [:]
    /// Counts rebuilds, so an archiving round that spans one leaves the rebuilt state alone.
    var rebuilds = 0

    /// The last sequence number handed out, and the last one known durable.
    private(set) var sequence: Int64 = 0
    private(set) var durableSequence: Int64 = 0
    /// The time of the last command known durable. Times never go back, so a command logged at an earlier
    /// time is durable too (`archiveEnded` archives only rides whose end is).
    private(set) var durableTime = -Double.infinity
    /// The newest checkpoint in the store, and when checkpoints are due (`DispatchHost+Checkpoint`).
    var lastCheckpoint = CheckpointStatus()
    var checkpointPolicy = CheckpointPolicy.never
    var checkpointing = false
    private var unwritten: [LoggedCommand] = []
    private var writing = false
    /// How long a round of commits waits for more commands first, while busy (`delayCommits(by:)`); zero = never.
    private(set) var commitDelay: Duration = .zero
    /// Commands the last round of commits wrote: more than one means the host is busy.
    private var lastRoundCommands = 0
    /// The wait itself: `Task.sleep` (a test holds it to see what gathers meanwhile, `pauseCommits(with:)`).
    private var commitPause: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }
    /// Who waits for each logged command that is not durable yet, by sequence number.
    private var waiters: [Int64: DurabilityWaiter] = [:]
    /// Ride requests from outside the actor, without a task each (`submitRide`, `DispatchHost+Inbox`).
    let rideInbox = RideInbox()
    /// Set after a failed write until the core is rebuilt from the store.
    private(set) var broken = false
    private var nextRequest = 1
    /// Logged commands the core refused on replay (0 unless the log and the core disagree).
    public private(set) var replayRefusals = 0

    /// Opens the host on a store, replaying its command log.
    /// - Parameters:
    ///   - tracer: where the spans go; by default the process's (`InstrumentationSystem.tracer`).
    ///   - makeCore: builds a fresh core for the city and rules (used again after a storage failure).
    /// - Throws: the store's errors, or the core's configuration error.
    public init(store: any DispatchStore, clock: any ServiceClock, tracer: any Tracer = InstrumentationSystem.tracer,
                makeCore: @escaping @Sendable () throws -> DispatchCore) async throws {
        self.store = store
        self.clock = clock
        self.tracer = tracer
        self.makeCore = makeCore
        core = try makeCore()
        configuredCity = core.city
        try await rebuild()
    }

    /// Counts and times the command-log commits in `metrics` from now on.
    public func measure(with metrics: ServiceMetrics) { self.metrics = metrics }

    /// From now on, a round of commits first waits `delay` (real time) for more commands to share its
    /// transaction, when the round before wrote more than one command (as PostgreSQL's `commit_delay` with
    /// `commit_siblings`): fewer commits and `fdatasync`s per command under load, at up to `delay` more latency,
    /// and no wait at all for a host that is not busy. `.zero` turns it off.
    public func delayCommits(by delay: Duration) {
        precondition(delay >= .zero, "a commit delay is not negative")
        commitDelay = delay
    }

    /// Replaces the commit delay's wait (tests).
    func pauseCommits(with pause: @escaping @Sendable (Duration) async -> Void) { commitPause = pause }

    /// Commands waiting for the next commit (tests).
    var unwrittenCount: Int { unwritten.count }

    // MARK: - Commands

    /// Applies a command now, stores it, schedules its timers and publishes its effects.
    /// - Throws: `DispatchError` when the core refuses (nothing changed, nothing stored);
    ///   `HostError.storageUnavailable` when the store failed.
    @discardableResult
    public func execute(_ command: Command) async throws -> [Effect] {
        try await tracer.withSpan(CommandTrace.name(of: command)) { span in
            CommandTrace.describe(command, on: span)
            do {
                let effects = try await apply(command)
                CommandTrace.accepted(effects, on: span)
                return effects
            } catch {
                CommandTrace.refused(error, on: span)
                throw error
            }
        }
    }

    /// `execute` without its span.
    private func apply(_ command: Command) async throws -> [Effect] {
        let (entry, effects) = try accept(command)
        try await persist(entry)
        publish(effects)
        return effects
    }

    /// Applies a command now and schedules its timers: the log entry to store, and the effects to publish
    /// once it is durable.
    /// - Throws: `HostError.storageUnavailable` while recovering from a failed write; the core's refusal.
    func accept(_ command: Command) throws -> (LoggedCommand, [Effect]) {
        if broken { throw HostError.storageUnavailable("recovering from a failed write") }
        let time = max(clock.now(), core.now)
        let effects = try core.handle(command, at: time)
        sequence += 1
        let entry = LoggedCommand(sequence: sequence, time: time, command: command)
        ledger.record(command, at: time, effects: effects, taxiCode: core.taxiCode(of:))
        schedule(effects)
        return (entry, effects)
    }

    /// Answers a D14 query (`queueStatus`, `estimateArrival`) without logging it: it changes nothing.
    public func query(_ command: Command) throws(DispatchError) -> [Effect] {
        let span = tracer.startSpan(CommandTrace.name(of: command))
        defer { span.end() }
        CommandTrace.describe(command, on: span)
        do {
            let effects = try core.handle(command, at: max(clock.now(), core.now))
            CommandTrace.accepted(effects, on: span)
            return effects
        } catch {
            CommandTrace.refused(error, on: span)
            span.recordError(error)
            span.setStatus(.init(code: .error))
            throw error
        }
    }

    /// A request id never used before.
    func newRequestID() -> RequestID {
        defer { nextRequest += 1 }
        return RequestID(nextRequest)
    }

    // MARK: - Durability

    /// Waits until `entry` is durable. The first waiter writes everything queued
    /// meanwhile in one transaction, then the next batch, until none is left.
    private func persist(_ entry: LoggedCommand) async throws {
        unwritten.append(entry)
        if writing {
            try await withCheckedThrowingContinuation { waiters[entry.sequence] = .task($0) }
            return
        }
        try await writeRounds()
    }

    /// Queues `entry` for the next commit; `waiter` is told when it is durable or lost. Whoever queues
    /// entries and finds no write in progress (`isWriting`) must then call `writeRounds()`.
    func enqueue(_ entry: LoggedCommand, for waiter: DurabilityWaiter) {
        unwritten.append(entry)
        waiters[entry.sequence] = waiter
    }

    /// Whether a round of commits is in progress (it will also write what is queued meanwhile).
    var isWriting: Bool { writing }

    /// Whether some command applied to the core is not durable yet.
    var hasUndurableCommands: Bool { writing || !unwritten.isEmpty }

    /// Writes the queued commands in rounds, one transaction each, until nothing is queued; the first round also
    /// takes the rides the inbox holds once the commit delay's pause is over (`admitRides`). Rides that come
    /// later are the inbox's drainer's to apply.
    /// - Throws: the failed write as `HostError.storageUnavailable`; every command it and the queue held is
    ///   lost, its waiters are told, and the host rebuilds from the store.
    func writeRounds() async throws {
        precondition(!writing, "one round of commits at a time")
        writing = true
        defer { writing = false }
        if commitDelay > .zero, lastRoundCommands > 1 { await commitPause(commitDelay) }
        lastRoundCommands = 0
        admitRides()  // the inbox's rides, those that came during the pause among them, share the round
        while !unwritten.isEmpty {
            let batch = unwritten
            unwritten = []
            let started = ContinuousClock.now
            do {
                try await tracer.withSpan("store.commit", ofKind: .client) { [store] span in
                    span.attributes["store.backend"] = store.backend
                    span.attributes["store.batch_size"] = batch.count
                    try await store.append(batch)
                }
                metrics?.recordCommit(commands: batch.count, duration: ContinuousClock.now - started)
            } catch {
                metrics?.recordCommitFailure()
                let failure = HostError.storageUnavailable("\(error)")
                for lost in batch + unwritten { waiters.removeValue(forKey: lost.sequence)?.fail(failure) }
                unwritten = []
                broken = true
                Task { try? await self.recover() }
                throw failure
            }
            lastRoundCommands += batch.count
            durableSequence = batch.last!.sequence
            durableTime = batch.last!.time
            for done in batch { waiters.removeValue(forKey: done.sequence).map(durable) }
        }
    }

    /// Asks the store for a round trip (`/health/ready`).
    /// - Throws: `HostError.storageUnavailable` while the host rebuilds after a failed write; the store's error.
    func checkStore() async throws {
        if broken { throw HostError.storageUnavailable("recovering from a failed write") }
        try await store.ping()
    }

    /// Rebuilds the core from the store after a failed write (what was not stored is forgotten).
    func recover() async throws {
        try await rebuild()
        broken = false
    }

    /// Loads the newest checkpoint (or a fresh core) and replays the commands logged after it at
    /// the logged times: drivers, queues, open rides, reservations, the ledger and the pending
    /// timers come back as they were.
    /// - Throws: `CheckpointError` for a checkpoint that cannot be used; the store's errors.
    private func rebuild() async throws {
        let stored = try await store.latestCheckpoint()
        let checkpoint = try stored.map { try HostCheckpoint.decode($0, store: store.backend) }
        let fresh = try checkpoint.map { try $0.restoreCore(configuredAs: try makeCore(), store: store.backend) } ?? makeCore()
        var ledger = checkpoint?.ledger ?? RideLedger()
        var pending: [TimerID: [Double]] = [:]
        for (due, timer) in checkpoint?.timers.timers ?? [] { pending[timer, default: []].append(due) }
        let log = try await store.commands(after: checkpoint?.sequence ?? 0)
        var refusals = 0
        for entry in log {
            do {
                let effects = try fresh.handle(entry.command, at: entry.time)
                ledger.record(entry.command, at: entry.time, effects: effects, taxiCode: fresh.taxiCode(of:))
                for case .wake(let due, let timer) in effects { pending[timer, default: []].append(due) }
                if case .timerFired(let timer) = entry.command, var dues = pending[timer], !dues.isEmpty {
                    dues.remove(at: dues.indices.min { dues[$0] < dues[$1] }!)
                    pending[timer] = dues.isEmpty ? nil : dues
                }
            } catch {
                refusals += 1
            }
        }
        let archived = try await dropArchived(from: fresh, ledger: &ledger)
        core = fresh
        self.ledger = ledger
        archivedCounts = archived
        rebuilds += 1
        timers = TimerQueue()
        timersAfterSweep = 0
        for (timer, dues) in pending.sorted(by: { $0.value.min()! < $1.value.min()! }) {
            for due in dues.sorted() { timers.insert(timer, due: due) }
        }
        replayRefusals = refusals
        sequence = log.last?.sequence ?? checkpoint?.sequence ?? 0
        durableSequence = sequence
        durableTime = fresh.now
        lastCheckpoint = CheckpointStatus(sequence: stored?.sequence ?? 0, bytes: stored?.bytes.count ?? 0)
        restorableFrom = checkpoint?.restorableFrom
        nextRequest = max(nextRequest, ledger.largestRequestID + 1)
        sleeper?.cancel()
    }
}
