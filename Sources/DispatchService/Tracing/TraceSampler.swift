/// Which traces `OTLPTracer` records and exports: OpenTelemetry's built-in samplers, chosen by name as
/// `OTEL_TRACES_SAMPLER` (`tracing.sampler`) names them, with `OTEL_TRACES_SAMPLER_ARG` (`tracing.sampler_arg`)
/// as the ratio. An unsampled span records nothing and is not exported, but its context (trace id, span id and the
/// W3C sampled flag 0) still propagates, so the services downstream know the trace was not sampled.
///
/// Invariant: a decision depends only on the trace id and the parent's sampled flag, so every span of a trace, and
/// every service with the same ratio, decides alike; a ratio is within 0...1 (`TracingSettings.validate`).
///
/// ```swift
/// let sampler = TraceSampler(name: .parentBasedTraceIDRatio, argument: 0.1)  // .parentBased(root: .traceIDRatio(0.1))
/// sampler.isSampled(traceLow: identity.traceLow, parent: nil)               // 1 trace in 10, by its id
/// ```
public enum TraceSampler: Sendable, Equatable {
    /// Every span.
    case alwaysOn
    /// No span.
    case alwaysOff
    /// The traces whose id's lower 8 bytes (big-endian, as in the hex id) are below `ratio × 2^64`, whatever the parent
    /// says (the rule of OpenTelemetry's Go SDK, so a ratio keeps the traces of every smaller ratio).
    case traceIDRatio(Double)
    /// A span with a parent (local or from a `traceparent`) is sampled when its parent is; a root as `root` decides.
    indirect case parentBased(root: TraceSampler)

    /// `OTEL_TRACES_SAMPLER`'s values that citysim implements.
    public enum Name: String, Codable, CaseIterable, Sendable {
        case alwaysOn = "always_on", alwaysOff = "always_off", traceIDRatio = "traceidratio"
        case parentBasedAlwaysOn = "parentbased_always_on", parentBasedAlwaysOff = "parentbased_always_off"
        case parentBasedTraceIDRatio = "parentbased_traceidratio"
    }

    /// OpenTelemetry's default: `parentbased_always_on`.
    public static let standard = TraceSampler.parentBased(root: .alwaysOn)

    /// The sampler `name` means; `argument` is the ratio of the ratio samplers (default 1.0), ignored by the others.
    public init(name: Name, argument: Double?) {
        switch name {
        case .alwaysOn: self = .alwaysOn
        case .alwaysOff: self = .alwaysOff
        case .traceIDRatio: self = .traceIDRatio(argument ?? 1)
        case .parentBasedAlwaysOn: self = .parentBased(root: .alwaysOn)
        case .parentBasedAlwaysOff: self = .parentBased(root: .alwaysOff)
        case .parentBasedTraceIDRatio: self = .parentBased(root: .traceIDRatio(argument ?? 1))
        }
    }

    /// Whether a span of the trace whose id ends in `traceLow`, child of `parent` (nil for a root), is sampled.
    /// - Complexity: O(1).
    public func isSampled(traceLow: UInt64, parent: SpanIdentity?) -> Bool {
        switch self {
        case .alwaysOn: true
        case .alwaysOff: false
        case .traceIDRatio(let ratio):
            // ratio × 2^64 is exact for ratio < 1 (a power of two scales the binary exponent only) and below 2^64.
            ratio >= 1 || ratio > 0 && traceLow < UInt64(ratio * 18_446_744_073_709_551_616.0)
        case .parentBased(let root):
            parent.map(\.isSampled) ?? root.isSampled(traceLow: traceLow, parent: nil)
        }
    }
}
