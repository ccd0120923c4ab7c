import Hummingbird

/// Counts and times every request in `ServiceMetrics`, by matched route template, method and status.
///
/// It is the outermost middleware, so the status is the one the client got (problem documents
/// included). A response whose body has a known length is complete when the handler returns it,
/// and is recorded then: its body is left as it is, so Hummingbird writes head and body in one
/// `write` (wrapping it in a closure made that two). A streamed body (unknown length: event
/// streams) is timed until its last byte is written. A request no route matched is recorded
/// under the route `unmatched`, so stray paths cannot multiply the series.
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
            guard body.contentLength == nil else {
                metrics.recordRequest(route: route, method: method, status: status, duration: ContinuousClock.now - started)
                return response
            }
            response.body = ResponseBody { [metrics] writer in
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
