import DispatchCore
import Logging
import ServiceLifecycle

/// The timer loop as a service: fires the host's timers, and takes checkpoints, archives ended rides and trims
/// malloc's free pages (`ProcessHeap.trimInterval`) beside it, until graceful shutdown, which it reaches after the
/// HTTP server has drained (it is started before the server, so stopped after it). Then, with no request in
/// flight and no timer firing, it takes a last checkpoint (`DispatchHost.checkpointAtShutdown`) before the
/// PostgreSQL pool (stopped after it) closes, so the next start replays no tail.
struct TimerService: Service {
    let host: DispatchHost
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await host.runTimers() }
                group.addTask { await host.runArchiving() }
                group.addTask { await host.runCheckpoints() }
                group.addTask { await ProcessHeap.trimPeriodically(every: ProcessHeap.trimInterval) }
            }
        }
        do {
            if let sequence = try await host.checkpointAtShutdown() {
                logger.info("checkpoint at shutdown", metadata: ["sequence": "\(sequence)"])
            }
        } catch {
            logger.error("checkpoint at shutdown failed; the next start replays the log", metadata: ["error": "\(error)"])
        }
    }
}

/// The first service told of a graceful shutdown (it is listed last): it marks the service not
/// ready and ends the open event streams, so that the HTTP server, told next, can drain — an open
/// stream would otherwise be an in-flight request that never ends.
struct DrainService: Service {
    let host: DispatchHost
    let readiness: Readiness

    func run() async throws {
        try? await gracefulShutdown()
        readiness.beginDraining()
        await host.endSubscriptions()
    }
}

/// The PostgreSQL store's connection pool as a service: the pool serves the log replay before the
/// group starts, and is closed when the group shuts down — last, after the requests and timers
/// that use it have stopped.
struct StorePoolService: Service {
    let store: PostgresDispatchStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}

extension DispatchHost {
    /// Ends every open event stream (graceful shutdown); their responses then finish.
    func endSubscriptions() {
        for streams in subscribers.values {
            for continuation in streams.values { continuation.finish() }
        }
    }
}
