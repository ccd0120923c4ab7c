import Hummingbird

/// Hummingbird's `TracingMiddleware` for every request but the operator's probes and scrapes: `GET /health` (the
/// first probe, kept for old load balancers), `GET /health/live`, `GET /health/ready` and `GET /metrics` get no
/// span, since a load balancer's probes and Prometheus's scrapes every few seconds would fill the trace store with
/// spans nobody reads. Every other request keeps its server span.
///
/// Invariant: a request is traced unless its method and path are exactly one of `untraced`'s pairs (no query string
/// is part of the path); an untraced request runs as it would without this middleware.
///
/// ```swift
/// router.add(middleware: RequestTracingMiddleware())   // outermost, so its span covers the other middleware
/// ```
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The probes and the scrape.
    static var operatorRoutes: Set<Route> {
        [Route(method: .get, path: "/health"), Route(method: .get, path: "/health/live"),
         Route(method: .get, path: "/health/ready"), Route(method: .get, path: "/metrics")]
    }

    /// A method and an exact path.
    struct Route: Hashable {
        let method: HTTPRequest.Method
        let path: String
    }

    let untraced: Set<Route>
    private let tracing = TracingMiddleware<Context>()

    init(untraced: Set<Route> = Self.operatorRoutes) { self.untraced = untraced }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if untraced.contains(Route(method: request.method, path: request.uri.path)) { return try await next(request, context) }
        return try await tracing.handle(request, context: context, next: next)
    }
}
