import Hummingbird

/// Counts and times every request in `ServiceMetrics`, by matched route template, method and status.
///
/// It is the outermost middleware, so the status is the one the client got (problem documents
/// included); the time runs until the response body is written. A request no route matched is
/// recorded under the route `unmatched`, so stray paths cannot multiply the series.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue
        do {
            var response = try await next(request, context)
            let status = response.status.code
            let route = Self.route(context)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { [metrics] writer in
                defer {
                    metrics.recordRequest(route: route, method: method, status: status,
                                          duration: ContinuousClock.now - started)
                }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.recordRequest(route: Self.route(context), method: method, status: status,
                                  duration: ContinuousClock.now - started)
            throw error
        }
    }

    /// The matched route template, or `unmatched` (Hummingbird names the not-found responder `NotFound`).
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path.hasPrefix("/") else { return "unmatched" }
        return path
    }
}
