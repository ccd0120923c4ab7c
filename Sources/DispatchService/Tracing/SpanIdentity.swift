import Instrumentation

/// The W3C trace identity of one span: a 16-byte trace id shared by every span of a trace, an
/// 8-byte span id of its own, and the sampled flag (whether the span is recorded and exported).
///
/// Invariant: neither id is all zeros (W3C Trace Context calls such ids invalid), so `hexTraceID` is always
/// 32 lowercase hex digits and `hexSpanID` 16.
public struct SpanIdentity: Sendable, Hashable {
    public let traceHigh: UInt64, traceLow: UInt64
    public let spanID: UInt64
    /// W3C's `sampled` trace flag: the span is recorded and exported (set by the tracer's `TraceSampler`).
    public internal(set) var isSampled: Bool

    /// A new span of the trace `trace` (a fresh trace when nil), with a random span id and the trace's sampled flag.
    init(continuing trace: SpanIdentity? = nil) {
        var random = SystemRandomNumberGenerator()
        isSampled = trace?.isSampled ?? true
        if let trace {
            traceHigh = trace.traceHigh
            traceLow = trace.traceLow
        } else {
            traceHigh = random.next()
            traceLow = Self.nonZero(&random)
        }
        spanID = Self.nonZero(&random)
    }

    init?(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, isSampled: Bool = true) {
        guard traceHigh | traceLow != 0, spanID != 0 else { return nil }
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.isSampled = isSampled
    }

    private static func nonZero(_ random: inout SystemRandomNumberGenerator) -> UInt64 {
        while true {
            let value: UInt64 = random.next()
            if value != 0 { return value }
        }
    }

    /// The trace id as 32 lowercase hex digits (OTLP JSON's `traceId`).
    public var hexTraceID: String { Self.hex(traceHigh) + Self.hex(traceLow) }
    /// The span id as 16 lowercase hex digits (OTLP JSON's `spanId`).
    public var hexSpanID: String { Self.hex(spanID) }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: - W3C traceparent

    /// `00-TRACEID-SPANID-FLAGS`: this span as the parent of a remote one; flags `01` when sampled, else `00`.
    var traceparent: String { "00-\(hexTraceID)-\(hexSpanID)-\(isSampled ? "01" : "00")" }

    /// Reads a `traceparent` header value, its sampled flag (the flags' lowest bit) included; nil for a malformed one,
    /// version `ff`, or all-zero ids.
    init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0] != "ff", parts[0] != "00" || parts.count == 4,
              parts[0].count == 2, parts[1].count == 32, parts[2].count == 16, parts[3].count == 2,
              parts.prefix(4).allSatisfy(Self.isLowercaseHex),
              let high = UInt64(parts[1].prefix(16), radix: 16), let low = UInt64(parts[1].suffix(16), radix: 16),
              let span = UInt64(parts[2], radix: 16), let flags = UInt8(parts[3], radix: 16)
        else { return nil }
        self.init(traceHigh: high, traceLow: low, spanID: span, isSampled: flags & 1 == 1)
    }

    private static func isLowercaseHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

/// Where a span's identity travels in an `InstrumentationContext`: set by `OTLPTracer` on each span's context
/// and by `extract` from a `traceparent` header, read by `startSpan` to find the parent.
enum SpanIdentityKey: InstrumentationContextKey {
    typealias Value = SpanIdentity
    static var nameOverride: String? { "otlp-span-identity" }
}

extension InstrumentationContext {
    /// The identity of the span this context belongs to (or of the remote parent a request came with).
    public internal(set) var spanIdentity: SpanIdentity? {
        get { self[SpanIdentityKey.self] }
        set { self[SpanIdentityKey.self] = newValue }
    }
}
