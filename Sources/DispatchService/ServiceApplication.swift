import CitySim
import DispatchCore
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import Tracing
import UnixSignals

/// Assembles the service from a config: store, dispatch host, accounts, first administrator.
///
/// ```swift
/// let service = try await DispatchServiceApp.open(config: try ServiceConfig.load(path: "Service/service.yaml"))
/// try await service.run()
/// ```
public struct DispatchServiceApp: Sendable {
    public let config: ServiceConfig
    public let host: DispatchHost
    public let accounts: AccountService
    /// The trip planner: its store (the SQLite or PostgreSQL store's database, or memory) and the config's transit feed.
    let planner: PlannerService
    /// What `GET /metrics` exports; the host records its command-log commits here.
    public let metrics: ServiceMetrics
    /// The tracer and its exporter when the config's `tracing` names an endpoint; nil = spans go to the
    /// process's tracer (a no-op unless bootstrapped).
    public let tracing: ServiceTracing?
    /// What `GET /health/ready` answers; not ready once graceful shutdown begins.
    public let readiness = Readiness()

    /// Opens the store, replays its log, creates the first administrator and makes sure every
    /// driver account is known to the core.
    /// - Parameter clock: the service clock; by default the wall clock, or a `ScaledClock` that carries
    ///   on from the last logged command when the config sets `clock_speed`.
    public static func open(config: ServiceConfig, clock: (any ServiceClock)? = nil,
                            store: (any DispatchStore)? = nil) async throws -> DispatchServiceApp {
        try await open(config: config, clock: clock, store: store, plannerStore: nil)
    }

    /// `open`, with the planner's store given (tests share one between two opens to restart);
    /// nil = the planner's tables in the SQLite or PostgreSQL store's database, or memory beside any other store.
    static func open(config: ServiceConfig, clock: (any ServiceClock)?, store: (any DispatchStore)?,
                     plannerStore: (any PlannerStore)?) async throws -> DispatchServiceApp {
        let scenario = try Scenario.load(path: config.scenario)
        _ = try scenario.makeDispatchCore()  // fail early on a bad city or rules
        let transit = try config.planner.map(PlannerTransit.init)  // read once; fail early on a bad feed
        let store = if let store { store } else { try await openStore(config.storeLocation()) }
        let serviceClock: any ServiceClock
        if let clock {
            serviceClock = clock
        } else if let speed = config.clockSpeed, speed != 1 {
            serviceClock = ScaledClock(speed: speed)
        } else {
            serviceClock = SystemClock()
        }
        let metrics = ServiceMetrics()
        let tracing = config.tracing.flatMap { ServiceTracing(settings: $0, metrics: metrics, logger: Self.logger(config, "citysim.tracing")) }
        let host = try await DispatchHost(store: store, clock: serviceClock,
                                          tracer: tracing.map { $0.tracer as any Tracer } ?? InstrumentationSystem.tracer) {
            try scenario.makeDispatchCore()
        }
        if let scaled = serviceClock as? ScaledClock { scaled.resume(atLeast: await host.coreTime) }
        let plannerStore: any PlannerStore = if let plannerStore { plannerStore }
            else if let sqlite = store as? SQLiteDispatchStore { try SQLitePlannerStore(sharing: sqlite) }
            else if let postgres = store as? PostgresDispatchStore { try await PostgresPlannerStore(sharing: postgres) }
            else { InMemoryPlannerStore() }
        var settings = AccountService.Settings()
        if let cost = config.bcryptCost { settings.bcryptCost = UInt8(cost) }
        if let lifetime = config.tokenLifetimeS { settings.tokenLifetime = lifetime }
        if let burst = config.loginBurstPerAddress {
            settings.clientLoginBurst = Double(burst)
            settings.clientLoginAttemptsPerMinute = Double(burst)
        }
        let accounts = AccountService(store: store, clock: serviceClock, settings: settings)
        if try await store.account(email: config.admin.email) == nil {
            _ = try await accounts.create(email: config.admin.email, password: config.admin.password,
                                          name: "administrator", role: .admin)
        }
        // A driver account whose addDriver did not reach the log (a crash in between) is added now.
        for driver in try await store.accounts(role: .driver) where !(await host.knowsDriver(DriverID(driver.id))) {
            try await host.execute(.addDriver(DriverID(driver.id), taxiCode: driver.taxiCode ?? "TAXI-\(driver.id)"))
        }
        await host.archiveEndedRides(after: config.archiveAfterS ?? ServiceConfig.defaultArchiveAfter)
        await host.retainArchive(for: config.archiveRetainDays.map { $0 * 86_400 })
        await host.checkpoint(under: (config.checkpoint ?? CheckpointSettings()).policy)
        await host.measure(with: metrics)
        await host.delayCommits(by: .milliseconds(config.commitDelayMs ?? ServiceConfig.defaultCommitDelayMs))
        return DispatchServiceApp(config: config, host: host, accounts: accounts,
                                  planner: PlannerService(store: plannerStore, host: host, transit: transit),
                                  metrics: metrics, tracing: tracing)
    }

    /// The config's store: its SQLite file, or a pool of connections to its PostgreSQL database.
    static func openStore(_ location: StoreLocation) async throws -> any DispatchStore {
        switch location {
        case .sqlite(let path): try SQLiteDispatchStore(path: path)
        case .postgres(let url): try await PostgresDispatchStore(url: url)
        }
    }

    /// The router of this service: its planner, metrics, readiness and request-log level.
    func router(keepAlive: Duration = .seconds(15)) -> Router<ServiceRequestContext> {
        buildRouter(host: host, accounts: accounts, planner: planner, metrics: metrics, readiness: readiness,
                    requestLogLevel: (config.log ?? LogSettings()).requestLevel, keepAlive: keepAlive,
                    tracesRequests: tracing != nil)
    }

    /// HTTP/1.1, with `RideFastPath` in front of the router unless the config turns it off or tracing is on.
    /// - Parameter logger: where `RideFastPath` logs (the application's logger: the router's requests log there too).
    func httpServer(logger: Logger? = nil) -> HTTPServerBuilder {
        guard config.rideFastPath ?? true, tracing == nil else { return .http1() }
        let service = RideFastPath.Service(
            host: host, accounts: accounts, metrics: metrics, logger: logger ?? self.logger,
            requestLogLevel: (config.log ?? LogSettings()).requestLevel, serverName: Self.serverName,
            maximumBody: ServiceRequestContext.maximumUpload)
        return .http1(configuration: .init(additionalChannelHandlers: [RideFastPath(service)]))
    }

    /// The `Server` header of every answer.
    static let serverName = "citysim"

    /// Serves HTTP until SIGTERM or SIGINT, then shuts down gracefully (see `serviceGroup`) and flushes the log.
    public func run(shutdownGrace: Duration = .seconds(30)) async throws {
        defer { LogSettings.flush() }
        try await serviceGroup(shutdownGrace: shutdownGrace).run()
        logger.info("citysim serve: stopped")
    }

    /// The service's parts as one `ServiceGroup`, started in this order and stopped in reverse: the span
    /// exporter (when tracing is on; stopped last, so it sends the spans of the drained requests), the
    /// PostgreSQL pool, the timer loop, the HTTP server (Hummingbird's `Application`), the drain. On
    /// graceful shutdown (one of `signals`, or `triggerGracefulShutdown()`) readiness turns 503 and the
    /// event streams end, the server stops accepting and drains the requests in flight, the timer loop
    /// stops and a checkpoint is taken at the last committed command (unless checkpoints are off), and the
    /// PostgreSQL pool closes; past `shutdownGrace` what is left is cancelled.
    /// - Parameters:
    ///   - port: listen here instead of the config's port (0: any free port, tests).
    ///   - onListening: told the port once the server listens.
    func serviceGroup(shutdownGrace: Duration = .seconds(30), signals: [UnixSignal] = [.sigterm, .sigint],
                      port: Int? = nil, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> ServiceGroup {
        let app = Application(
            router: router(),
            server: httpServer(),
            configuration: .init(address: .hostname(config.host, port: port ?? config.port), serverName: Self.serverName),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        var services: [any Service] = []
        if let tracing { services.append(tracing.exporter) }
        if let postgres = host.store as? PostgresDispatchStore { services.append(StorePoolService(store: postgres)) }
        services += [TimerService(host: host, logger: logger), app, DrainService(host: host, readiness: readiness)] as [any Service]
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownGrace
        return ServiceGroup(configuration: configuration)
    }

    /// The service's logger, at the config's level.
    var logger: Logger { Self.logger(config, "citysim.service") }

    /// A logger with this label at the config's level.
    static func logger(_ config: ServiceConfig, _ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = (config.log ?? LogSettings()).loggerLevel
        return logger
    }
}
