import Foundation
import Logging
import NIOConcurrencyHelpers

/// A swift-log handler that writes one JSON object a line to standard output, for log collectors:
/// `{"timestamp":"2026-11-23T21:30:00.123Z","level":"info","label":"citysim.service","message":"…",`
/// `"metadata":{"hb.request.id":"…"},"source":"Hummingbird"}` (keys sorted, metadata merged from the
/// logger and the call, the call's winning).
///
/// Invariant: every record is written whole, in one `write` under one lock, so lines from
/// concurrent tasks never interleave, and unbuffered, so a record is with the OS when `log` returns.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let label: String

    public init(label: String, level: Logger.Level) {
        self.label = label
        logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    private static let lock = NIOLock()
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    struct Record: Encodable {
        var timestamp: String
        var level: String
        var label: String
        var message: String
        var metadata: [String: MetadataJSON]?
        var source: String
    }

    /// A metadata value as JSON: strings stay strings, arrays and dictionaries nest.
    enum MetadataJSON: Encodable {
        case string(String), array([MetadataJSON]), object([String: MetadataJSON])

        init(_ value: Logger.MetadataValue) {
            switch value {
            case .string(let text): self = .string(text)
            case .stringConvertible(let value): self = .string(value.description)
            case .array(let values): self = .array(values.map(MetadataJSON.init))
            case .dictionary(let values): self = .object(values.mapValues(MetadataJSON.init))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .array(let values): try container.encode(values)
            case .object(let values): try container.encode(values)
            }
        }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, call in call } }
        if let error = event.error { merged["error"] = .string("\(error)") }
        let record = Record(
            timestamp: Date.now.formatted(Self.timestampStyle),
            level: event.level.rawValue, label: label, message: event.message.description,
            metadata: merged.isEmpty ? nil : merged.mapValues(MetadataJSON.init), source: event.source)
        guard var line = try? Self.encoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        Self.lock.withLock {
            line.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }  // standard output closed: nothing to report the failure to
                    offset += written
                }
            }
        }
    }

    /// Waits for a record being written (each is handed to the operating system unbuffered, whole).
    public static func flush() { lock.withLock {} }
}
