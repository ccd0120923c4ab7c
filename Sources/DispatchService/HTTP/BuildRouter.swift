import Hummingbird

/// The service's router: problem documents for every error, bearer-token
/// authentication, and one route collection per resource under `/v1`.
///
/// ```swift
/// let router = buildRouter(host: host, accounts: AccountService(store: InMemoryDispatchStore(), clock: clock))
/// let app = Application(router: router)
/// ```
public func buildRouter(host: DispatchHost, accounts: AccountService) -> Router<ServiceRequestContext> {
    let router = Router(context: ServiceRequestContext.self)
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: AuthenticationMiddleware(accounts: accounts))
    router.get("health") { _, _ in HTTPResponse.Status.ok }
    let v1 = router.group("v1")
    v1.addRoutes(PublicController(host: host).routes)
    v1.addRoutes(AccountController(accounts: accounts).routes)
    v1.addRoutes(RideController(host: host).routes)
    v1.addRoutes(DriverController(host: host).routes, atPath: "driver")
    v1.addRoutes(AdminController(host: host, accounts: accounts).routes, atPath: "admin")
    v1.addRoutes(AdminStateController(host: host).routes, atPath: "admin")
    return router
}
