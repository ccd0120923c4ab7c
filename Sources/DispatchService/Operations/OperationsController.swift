import Hummingbird

/// The operator's routes, for anyone (no login): `GET /health/live` (the process answers),
/// `GET /health/ready` (the store answers and the service is not shutting down; else 503 with a
/// problem document naming why) and `GET /metrics` (Prometheus text format, version 0.0.4).
struct OperationsController {
    let host: DispatchHost
    let metrics: ServiceMetrics
    let readiness: Readiness

    struct HealthBody: ResponseEncodable { let status: String }

    func add(to router: Router<ServiceRequestContext>) {
        router.get("health/live") { _, _ in HealthBody(status: "live") }
        router.get("health/ready") { _, _ in
            if let problem = await readiness.problem(of: host) { throw problem }
            return HealthBody(status: "ready")
        }
        router.get("metrics") { _, _ in
            let text = await metrics.scrape(host)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
