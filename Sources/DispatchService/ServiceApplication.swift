import CitySim
import DispatchCore
import Hummingbird
import Logging

/// Assembles the service from a config: store, dispatch host, accounts, first administrator.
///
/// ```swift
/// let service = try await DispatchServiceApp.open(config: try ServiceConfig.load(path: "Scenarios/service.yaml"))
/// try await service.run()
/// ```
public struct DispatchServiceApp: Sendable {
    public let config: ServiceConfig
    public let host: DispatchHost
    public let accounts: AccountService
    /// The trip planner: its store (the SQLite or PostgreSQL store's database, or memory) and the config's transit feed.
    let planner: PlannerService

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
        let host = try await DispatchHost(store: store, clock: serviceClock) { try scenario.makeDispatchCore() }
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
        return DispatchServiceApp(config: config, host: host, accounts: accounts,
                                  planner: PlannerService(store: plannerStore, host: host, transit: transit))
    }

    /// The config's store: its SQLite file, or a pool of connections to its PostgreSQL database.
    static func openStore(_ location: StoreLocation) async throws -> any DispatchStore {
        switch location {
        case .sqlite(let path): try SQLiteDispatchStore(path: path)
        case .postgres(let url): try await PostgresDispatchStore(url: url)
        }
    }

    /// Serves HTTP until the process is told to stop; timers run alongside.
    public func run() async throws {
        var logger = Logger(label: "citysim.service")
        logger.logLevel = .info
        let app = Application(
            router: buildRouter(host: host, accounts: accounts, planner: planner),
            configuration: .init(address: .hostname(config.host, port: config.port), serverName: "citysim"),
            logger: logger)
        let timers = Task { await host.runTimers() }
        defer { timers.cancel() }
        try await app.runService()
    }
}
