import Foundation
import Tracing

/// The body of an OTLP/HTTP JSON export request (`POST /v1/traces`, `ExportTraceServiceRequest`), following
/// the protobuf JSON mapping OTLP specifies: ids as lowercase hex (not base64), 64-bit integers as decimal
/// strings (`startTimeUnixNano`, `intValue`), enums as integers (`kind`, `status.code`), field names in lowerCamelCase.
///
/// Invariant: one resource (`service.name`) and one scope (`citysim`) holding every span given.
struct OTLPTraceRequest: Encodable {
    let resourceSpans: [ResourceSpans]

    init(serviceName: String, spans: [FinishedSpan]) {
        resourceSpans = [ResourceSpans(
            resource: Resource(attributes: [KeyValue(key: "service.name", value: .string(serviceName))]),
            scopeSpans: [ScopeSpans(scope: Scope(name: "citysim"), spans: spans.map(SpanJSON.init))])]
    }

    /// The request as JSON bytes.
    static func encode(serviceName: String, spans: [FinishedSpan]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try encoder.encode(OTLPTraceRequest(serviceName: serviceName, spans: spans))
    }

    struct ResourceSpans: Encodable {
        let resource: Resource
        let scopeSpans: [ScopeSpans]
    }
    struct Resource: Encodable { let attributes: [KeyValue] }
    struct ScopeSpans: Encodable {
        let scope: Scope
        let spans: [SpanJSON]
    }
    struct Scope: Encodable { let name: String }

    struct SpanJSON: Encodable {
        let traceId: String, spanId: String, parentSpanId: String?
        let name: String
        let kind: Int
        let startTimeUnixNano: String, endTimeUnixNano: String
        let attributes: [KeyValue]
        let events: [Event]
        let links: [Link]
        let status: Status?

        init(_ span: FinishedSpan) {
            traceId = span.identity.hexTraceID
            spanId = span.identity.hexSpanID
            parentSpanId = span.parentSpanID.map(SpanIdentity.hex)
            name = span.name
            kind = Self.kind(span.kind)
            startTimeUnixNano = String(span.startNanos)
            endTimeUnixNano = String(span.endNanos)
            attributes = KeyValue.list(span.attributes)
            events = span.events.map { Event(timeUnixNano: String($0.nanosecondsSinceEpoch), name: $0.name,
                                             attributes: KeyValue.list($0.attributes)) }
            links = span.links.map { Link(traceId: $0.hexTraceID, spanId: $0.hexSpanID) }
            status = span.status.map { Status(code: $0.code == .ok ? 1 : 2, message: $0.message) }
        }

        /// `SpanKind` as OTLP's enum: INTERNAL 1, SERVER 2, CLIENT 3, PRODUCER 4, CONSUMER 5.
        static func kind(_ kind: SpanKind) -> Int {
            switch kind {
            case .internal: 1
            case .server: 2
            case .client: 3
            case .producer: 4
            case .consumer: 5
            }
        }
    }

    struct Event: Encodable {
        let timeUnixNano: String
        let name: String
        let attributes: [KeyValue]
    }
    struct Link: Encodable { let traceId: String, spanId: String }
    struct Status: Encodable {
        /// STATUS_CODE_OK 1, STATUS_CODE_ERROR 2 (an unset status is left out).
        let code: Int
        let message: String?
    }

    struct KeyValue: Encodable {
        let key: String
        let value: AnyValue

        /// The attributes sorted by key (a stable order for readers and tests).
        static func list(_ attributes: SpanAttributes) -> [KeyValue] {
            var list: [KeyValue] = []
            attributes.forEach { key, attribute in list.append(KeyValue(key: key, value: AnyValue(attribute))) }
            return list.sorted { $0.key < $1.key }
        }
    }

    /// OTLP's `AnyValue`: exactly one of `stringValue`, `intValue` (a decimal string), `doubleValue`,
    /// `boolValue`, `arrayValue`.
    indirect enum AnyValue: Encodable {
        case string(String), int(Int64), double(Double), bool(Bool), array([AnyValue])

        init(_ attribute: SpanAttribute) {
            switch attribute {
            case .int32(let value): self = .int(Int64(value))
            case .int64(let value): self = .int(value)
            case .double(let value): self = .double(value)
            case .bool(let value): self = .bool(value)
            case .string(let value): self = .string(value)
            case .int32Array(let values): self = .array(values.map { .int(Int64($0)) })
            case .int64Array(let values): self = .array(values.map { .int($0) })
            case .doubleArray(let values): self = .array(values.map { .double($0) })
            case .boolArray(let values): self = .array(values.map { .bool($0) })
            case .stringArray(let values): self = .array(values.map { .string($0) })
            case .stringConvertibleArray(let values): self = .array(values.map { .string("\($0)") })
            case .stringConvertible(let value): self = .string("\(value)")
            default: self = .string("\(attribute)")
            }
        }

        private enum Keys: String, CodingKey { case stringValue, intValue, doubleValue, boolValue, arrayValue, values }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            switch self {
            case .string(let value): try container.encode(value, forKey: .stringValue)
            case .int(let value): try container.encode(String(value), forKey: .intValue)
            case .double(let value): try container.encode(value, forKey: .doubleValue)
            case .bool(let value): try container.encode(value, forKey: .boolValue)
            case .array(let values):
                var array = container.nestedContainer(keyedBy: Keys.self, forKey: .arrayValue)
                try array.encode(values, forKey: .values)
            }
        }
    }
}
