import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// Sends the spans of a `SpanQueue` to an OTLP/HTTP collector as JSON (`POST` to the target's URL with its
/// headers, `Content-Type: application/json`), in batches of the queue's `batchSize`: whenever a batch is full,
/// every `flushInterval`, on `OTLPTracer.forceFlush()`, and once more for whatever is left at graceful
/// shutdown (list it before the HTTP server in the `ServiceGroup`, so it stops after the requests drained).
/// A batch the collector cannot take now (429, 502, 503, 504, no answer) is tried again as `retry` says.
///
/// Invariant: a failed export (no connection, a timeout, a non-2xx answer, retries spent) never throws out of
/// `run`: it is logged (a warning when exports start failing, info when they recover), its spans are counted in
/// `failedSpans` (and `citysim_spans_dropped_total{reason="export_failed"}`), and the exporter goes on. One
/// batch's export, retries and their waits included, takes at most the target's timeout.
public struct OTLPExporter: Service {
    let queue: SpanQueue
    /// Where batches go, with which headers, and how long each may take.
    public let target: OTLPExportTarget
    /// The URL batches are posted to.
    public var url: String { target.url }
    let serviceName: String
    let flushInterval: Duration
    let retry: ExportRetryPolicy
    let logger: Logger
    let metrics: ServiceMetrics?
    private let counts = NIOLockedValueBox(Counts())

    private struct Counts {
        var exported = 0
        var failed = 0
        var failing = false
    }

    /// - Parameters:
    ///   - target: where batches are posted (`OTLPExportTarget(settings:)`) and how long each may take.
    ///   - retry: when a failed batch is tried again.
    public init(queue: SpanQueue, target: OTLPExportTarget, serviceName: String, flushInterval: Duration = .seconds(1),
                retry: ExportRetryPolicy = ExportRetryPolicy(), logger: Logger = Logger(label: "citysim.tracing"),
                metrics: ServiceMetrics? = nil) {
        self.queue = queue
        self.target = target
        self.serviceName = serviceName
        self.flushInterval = flushInterval
        self.retry = retry
        self.logger = logger
        self.metrics = metrics
    }

    /// - Parameters:
    ///   - endpoint: the collector's base URL (`http://localhost:4318`); spans go to `endpoint/v1/traces`.
    public init(queue: SpanQueue, endpoint: String, serviceName: String, flushInterval: Duration = .seconds(1),
                logger: Logger = Logger(label: "citysim.tracing"), metrics: ServiceMetrics? = nil) {
        self.init(queue: queue, target: OTLPExportTarget(url: OTLPExportTarget.tracesURL(base: endpoint)),
                  serviceName: serviceName, flushInterval: flushInterval, logger: logger, metrics: metrics)
    }

    /// Spans the collector accepted.
    public var exportedSpans: Int { counts.withLockedValue { $0.exported } }
    /// Spans lost to failed exports.
    public var failedSpans: Int { counts.withLockedValue { $0.failed } }

    public func run() async throws {
        // Its own requests are not traced: with this tracer bootstrapped as the process's, each export would
        // make a client span to export, and the exporter would never run out of spans.
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [queue, flushInterval] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: flushInterval)
                    queue.requestFlush()
                }
            }
            await withGracefulShutdownHandler {
                for await _ in queue.wakeups { await sendPending(with: client) }
            } onGracefulShutdown: { [queue] in
                queue.finishWakeups()
            }
            group.cancelAll()
        }
        await sendPending(with: client, untilFailure: true)
        try? await client.shutdown()
    }

    /// Sends every waiting span, a batch per request.
    /// - Parameter untilFailure: at shutdown: after a failed batch, count the rest as failed instead of waiting
    ///   up to `timeout` for each (a collector that is down delays the stop by one timeout, not one per batch).
    private func sendPending(with client: HTTPClient, untilFailure: Bool = false) async {
        while true {
            let batch = queue.take(upTo: queue.batchSize)
            if batch.isEmpty { return }
            if await !send(batch, with: client), untilFailure {
                let rest = queue.take(upTo: .max)
                if !rest.isEmpty { recordFailure(rest.count) }
                return
            }
        }
    }

    /// Counts `spans` spans lost to a failed export; true when exports were working until now.
    @discardableResult
    private func recordFailure(_ spans: Int) -> Bool {
        metrics?.recordSpansDropped(spans, reason: .exportFailed)
        return counts.withLockedValue { counts in
            counts.failed += spans
            defer { counts.failing = true }
            return !counts.failing
        }
    }

    /// Posts one batch, trying again as `retry` allows until the target's timeout; false when it failed (logged and counted).
    private func send(_ batch: [FinishedSpan], with client: HTTPClient) async -> Bool {
        let deadline = ContinuousClock.now + target.timeout
        let failure: any Error
        do {
            let request = try makeRequest(batch)
            var attempt = 1
            while true {
                do {
                    try await post(request, with: client, before: deadline)
                    recordSuccess(batch.count)
                    return true
                } catch let failed as ExportFailed {
                    guard let wait = retry.delay(after: failed.failure, attempt: attempt, remaining: deadline - .now,
                                                 jitter: Double.random(in: 0..<1)) else { throw failed }
                    metrics?.recordSpanExportRetry(reason: failed.failure.reason)
                    logger.debug("span export will be tried again", metadata: [
                        "url": "\(url)", "attempt": "\(attempt)", "error": "\(failed)", "wait": "\(wait)"])
                    try await Task.sleep(for: wait)
                    attempt += 1
                }
            }
        } catch {
            failure = error
        }
        let first = recordFailure(batch.count)
        let metadata: Logger.Metadata = ["url": "\(url)", "spans": "\(batch.count)", "error": "\(failure)"]
        if first { logger.warning("span export failed; spans are dropped until it works again", metadata: metadata) }
        else { logger.debug("span export failed", metadata: metadata) }
        return false
    }

    private func makeRequest(_ batch: [FinishedSpan]) throws -> HTTPClientRequest {
        try target.request(body: ByteBuffer(data: try OTLPTraceRequest.encode(serviceName: serviceName, spans: batch)))
    }

    /// One attempt; returns when the collector accepted the batch (2xx).
    /// - Throws: `ExportFailed`, or `CancellationError`.
    private func post(_ request: HTTPClientRequest, with client: HTTPClient, before deadline: ContinuousClock.Instant) async throws {
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: TimeAmount(max(deadline - .now, .zero)))
            body = try await response.body.collect(upTo: 64 * 1024)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ExportFailed(failure: .noAnswer, detail: "\(error)")
        }
        guard (200..<300).contains(response.status.code) else {
            let retryAfter = ExportRetryPolicy.retryAfter(response.headers.first(name: "Retry-After"))
            throw ExportFailed(failure: .status(Int(response.status.code), retryAfter: retryAfter),
                               detail: "HTTP \(response.status.code): \(String(buffer: body).prefix(200))")
        }
    }

    private func recordSuccess(_ spans: Int) {
        let recovered = counts.withLockedValue { counts in
            counts.exported += spans
            defer { counts.failing = false }
            return counts.failing
        }
        metrics?.recordSpansExported(spans)
        if recovered { logger.info("span export recovered", metadata: ["url": "\(url)"]) }
    }

    /// One failed attempt: what the retry policy needs to know, and what the log says.
    struct ExportFailed: Error, CustomStringConvertible {
        let failure: ExportRetryPolicy.Failure
        let detail: String
        var description: String { detail }
    }
}
