import Foundation
import NIOConcurrencyHelpers
import Prometheus

/// The service's metrics, exported at `GET /metrics` in the Prometheus text format.
///
/// Request and command-log figures are recorded as they happen (counters and histograms);
/// the state of the dispatch core (rides by state, zone queues, waiting customers, pending
/// timers, event-stream subscribers) is read from the host at each scrape, so a scrape
/// always shows the state as it is and nothing has to be kept up to date between scrapes.
///
/// Invariant: every family below is registered once, with its help text, in `registry`;
/// a series of a labelled family exists from the first time its labels occur.
/// Each service has its own registry (tests run many services in one process); `citysim serve`
/// also points swift-metrics' global `MetricsSystem` at it, so libraries' metrics appear too.
///
/// ```swift
/// let metrics = ServiceMetrics()
/// metrics.recordRequest(route: "/v1/rides", method: "POST", status: 201, duration: .milliseconds(3))
/// let text = await metrics.scrape(host)   // # TYPE citysim_http_requests_total counter …
/// ```
public final class ServiceMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    private struct RequestKey: Hashable {
        let route: String, method: String, status: Int
    }
    private struct RouteKey: Hashable {
        let route: String, method: String
    }
    private let requestCounters = NIOLockedValueBox<[RequestKey: Counter]>([:])
    private let requestDurations = NIOLockedValueBox<[RouteKey: DurationHistogram]>([:])
    private let commitDuration: DurationHistogram
    private let batchSize: ValueHistogram
    private let commitFailures: Counter
    private let checkpoints: Counter
    private let checkpointFailures: Counter
    private let spansExported: Counter
    private let spansDropped: [SpanDropReason: Counter]
    private let exportRetries = NIOLockedValueBox<[String: Counter]>([:])
    /// Zones exported at the last scrape, so the series of zones a new map no longer has are removed.
    private let exportedZones = NIOLockedValueBox(0)

    static let requestBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]
    static let commitBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .seconds(1),
    ]
    static let batchBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        commitDuration = registry.makeDurationHistogram(
            descriptor: Self.family("citysim_command_log_commit_seconds",
                                    "Time to make one batch of commands durable in the store (one transaction, group commit)."),
            buckets: Self.commitBuckets)
        batchSize = registry.makeValueHistogram(
            descriptor: Self.family("citysim_command_log_batch_size", "Commands written per command-log commit."),
            buckets: Self.batchBuckets)
        commitFailures = registry.makeCounter(descriptor: Self.family(
            "citysim_command_log_commit_failures_total",
            "Command-log commits that failed (the host then rebuilds from the store)."))
        checkpoints = registry.makeCounter(descriptor: Self.family(
            "citysim_checkpoints_total", "Checkpoints stored (each followed by a cut of the command log)."))
        checkpointFailures = registry.makeCounter(descriptor: Self.family(
            "citysim_checkpoint_failures_total", "Checkpoints or log cuts that failed (tried again later)."))
        spansExported = registry.makeCounter(descriptor: Self.family(
            "citysim_spans_exported_total", "Tracing spans the OTLP collector accepted."))
        let dropped = Self.family("citysim_spans_dropped_total",
                                  "Tracing spans not exported: the queue was full (queue_full) or their export failed (export_failed).")
        spansDropped = Dictionary(uniqueKeysWithValues: SpanDropReason.allCases.map { reason in
            (reason, registry.makeCounter(descriptor: dropped, labels: [("reason", reason.rawValue)]))
        })
    }

    // MARK: - Recorded as it happens

    /// One answered HTTP request. `route` is the matched route template (`/v1/rides/{id}`),
    /// never the raw path, so the number of series stays bounded.
    public func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let counter = requestCounters.withLockedValue { counters in
            let key = RequestKey(route: route, method: method, status: status)
            if let counter = counters[key] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.family("citysim_http_requests_total", "HTTP requests answered, by route template, method and status."),
                labels: [("route", route), ("method", method), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
        let histogram = requestDurations.withLockedValue { histograms in
            let key = RouteKey(route: route, method: method)
            if let histogram = histograms[key] { return histogram }
            let histogram = registry.makeDurationHistogram(
                descriptor: Self.family("citysim_http_request_duration_seconds",
                                        "Time from a request's arrival until its response is ready (a body of known length) or its streamed body is written, by route template and method."),
                labels: [("route", route), ("method", method)], buckets: Self.requestBuckets)
            histograms[key] = histogram
            return histogram
        }
        histogram.record(duration)
    }

    /// One command-log commit of `commands` commands that took `duration`.
    func recordCommit(commands: Int, duration: Duration) {
        commitDuration.record(duration)
        batchSize.record(Double(commands))
    }

    /// A command-log commit that failed.
    func recordCommitFailure() { commitFailures.increment() }

    /// A checkpoint stored and the log cut at it (its figures are exported as gauges at each scrape).
    func recordCheckpoint(_ status: CheckpointStatus) { checkpoints.increment() }

    /// A checkpoint or log cut that failed.
    func recordCheckpointFailure() { checkpointFailures.increment() }

    /// Why spans were not exported (`citysim_spans_dropped_total{reason}`).
    enum SpanDropReason: String, CaseIterable { case queueFull = "queue_full", exportFailed = "export_failed" }

    /// Spans an OTLP export delivered.
    func recordSpansExported(_ count: Int) { spansExported.increment(by: Int64(count)) }

    /// Spans dropped from the export queue (full) or lost with a failed export.
    func recordSpansDropped(_ count: Int, reason: SpanDropReason) { spansDropped[reason]?.increment(by: Int64(count)) }

    /// A span batch that will be posted again: `reason` is the collector's answer (`http_503`, …) or `connection`.
    func recordSpanExportRetry(reason: String) {
        let counter = exportRetries.withLockedValue { counters in
            if let counter = counters[reason] { return counter }
            let counter = registry.makeCounter(
                descriptor: Self.family("citysim_span_export_retries_total",
                                        "Span batches posted again after a 429, 502, 503 or 504 answer (http_<status>) or no answer (connection)."),
                labels: [("reason", reason)])
            counters[reason] = counter
            return counter
        }
        counter.increment()
    }

    // MARK: - Read at each scrape

    /// Sets the state gauges from `host` and returns every family in the Prometheus text format.
    public func scrape(_ host: DispatchHost) async -> String {
        let state = await host.operationalState()
        gauge("citysim_waiting_customers", "Immediate requests waiting for a taxi to become available (D7).")
            .set(Double(state.waitingCustomers))
        gauge("citysim_pending_timers", "Timers the host will fire (offers, maximum allowed delays, reservations).")
            .set(Double(state.pendingTimers))
        gauge("citysim_rides_archived", "Rides archived out of memory (all states).").set(Double(state.archivedRides))
        gauge("citysim_archive_rides_deleted", "Archived rides deleted by archive_retain_days since the process started.")
            .set(Double(state.archiveRidesDeleted))
        gauge("citysim_command_log_rows_since_checkpoint",
              "Commands logged after the newest checkpoint: the log rows a restart replays.")
            .set(Double(state.commandsSinceCheckpoint))
        gauge("citysim_checkpoint_sequence", "Sequence number of the newest checkpoint (0: none).")
            .set(Double(state.checkpoint.sequence))
        gauge("citysim_checkpoint_bytes", "Size of the newest checkpoint as stored.").set(Double(state.checkpoint.bytes))
        gauge("citysim_checkpoint_duration_seconds",
              "Time the newest checkpoint this process took needed, from taking the state to the end of the log cut.")
            .set(state.checkpoint.duration.map { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 } ?? 0)
        if let heap = ProcessHeap.current() {
            gauge("citysim_heap_in_use_bytes", "malloc: bytes in allocated chunks (all arenas, mmapped included).")
                .set(Double(heap.inUse))
            gauge("citysim_heap_free_bytes", "malloc: bytes in free chunks the arenas keep.").set(Double(heap.free))
        }
        gauge("citysim_available_taxis", "Taxis available in a zone queue.").set(Double(state.availableTaxis))
        for (status, count) in state.ridesByState {  // every state, 0 included, so a drained state reads 0
            gauge("citysim_rides", "Rides held in memory, by state.", [("state", status)]).set(Double(count))
        }
        func queueGauge(_ zone: Int) -> Gauge {
            gauge("citysim_zone_queue_length", "Taxis in each zone's FIFO queue (D3).", [("zone", String(zone))])
        }
        for (zone, length) in state.queueLengths.enumerated() { queueGauge(zone).set(Double(length)) }
        let zones = state.queueLengths.count
        let exported = exportedZones.withLockedValue { exported in defer { exported = zones }; return exported }
        for gone in zones..<max(zones, exported) { registry.unregisterGauge(queueGauge(gone)) }  // PUT /v1/admin/city
        for (party, count) in state.subscribers {
            gauge("citysim_sse_subscribers", "Open server-sent event streams, by party.", [("party", party)])
                .set(Double(count))
        }
        return registry.emitToString()
    }

    private func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Gauge {
        labels.isEmpty ? registry.makeGauge(descriptor: Self.family(name, help))
            : registry.makeGauge(descriptor: Self.family(name, help), labels: labels)
    }

    /// A family named exactly `name` (its unit already part of it, so the descriptor adds no suffix) with its help text.
    private static func family(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
