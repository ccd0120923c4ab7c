import Hummingbird
import Logging

/// The service's router: problem documents for every error, bearer-token
/// authentication, and one route collection per resource under `/v1`. The trip
/// planner's routes keep their data in memory here and have no public transport;
/// the service (`DispatchServiceApp.run`) passes its own planner.
///
/// - Parameter keepAlive: time between `: keep-alive` comments on open event streams.
///
/// ```swift
/// let router = buildRouter(host: host, accounts: AccountService(store: InMemoryDispatchStore(), clock: clock))
/// let app = Application(router: router)
/// ```
public func buildRouter(host: DispatchHost, accounts: AccountService,
                        keepAlive: Duration = .seconds(15)) -> Router<ServiceRequestContext> {
    buildRouter(host: host, accounts: accounts,
                planner: PlannerService(store: InMemoryPlannerStore(), host: host, transit: nil), keepAlive: keepAlive)
}

/// The service's router with the trip planner's routes (`/v1/planner`, `/v1/admin/conditions`) on `planner`,
/// and the operator's routes (`/metrics`, `/health/live`, `/health/ready`) on `metrics` and `readiness`.
func buildRouter(host: DispatchHost, accounts: AccountService, planner: PlannerService,
                 metrics: ServiceMetrics = ServiceMetrics(), readiness: Readiness = Readiness(),
                 requestLogLevel: Logger.Level = .debug, keepAlive: Duration = .seconds(15),
                 tracesRequests: Bool = false) -> Router<ServiceRequestContext> {
    let router = Router(context: ServiceRequestContext.self)
    // Outermost, so a request's server span (the process's tracer) covers the others and is the parent of the
    // dispatch host's `dispatch.<op>` spans; probes and /metrics get none. Only when tracing is on: with no
    // tracer it would make a no-op span per request, server CPU spent on the path whose cost per ride
    // `Results/service` tracks.
    if tracesRequests { router.add(middleware: RequestTracingMiddleware()) }
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: LogRequestsMiddleware(requestLogLevel))
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: MethodNotAllowedMiddleware())
    router.add(middleware: AuthenticationMiddleware(accounts: accounts))
    router.get("health") { _, _ in HTTPResponse.Status.ok }
    router.get("openapi.json", use: OpenAPIDocument.serve(host: host))
    OperationsController(host: host, metrics: metrics, readiness: readiness).add(to: router)
    let v1 = router.group("v1")
    v1.addRoutes(PublicController(host: host).routes)
    v1.addRoutes(AccountController(accounts: accounts).routes)
    v1.addRoutes(RideController(host: host).routes)
    v1.addRoutes(EventStreamController(host: host, keepAlive: keepAlive).routes)
    v1.addRoutes(DriverController(host: host).routes, atPath: "driver")
    v1.addRoutes(AdminController(host: host, accounts: accounts).routes, atPath: "admin")
    v1.addRoutes(ConditionsController(planner: planner).routes, atPath: "admin")
    v1.addRoutes(PlannerAppointmentController(planner: planner).routes, atPath: "planner")
    v1.addRoutes(PlannerDayController(planner: planner).routes, atPath: "planner")
    v1.addRoutes(CityController(host: host).routes, atPath: "admin")
    v1.addRoutes(AdminStateController(host: host).routes, atPath: "admin")
    v1.addRoutes(OperatorController(host: host, interval: .milliseconds(500), keepAlive: keepAlive).routes,
                 atPath: "admin")
    WebConsole.shared.addRoutes(to: router)
    return router
}
