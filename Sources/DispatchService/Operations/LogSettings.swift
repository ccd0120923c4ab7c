import Foundation
import Logging

/// The `log:` block of the service config: how much the service logs and in which format.
///
/// ```yaml
/// log: { level: info, format: json, requests: info }
/// ```
/// Invariant: `level` and `requests` are swift-log levels; `format` is text or json.
public struct LogSettings: Codable, Sendable, Equatable {
    /// swift-log's levels, by the names the config uses.
    public enum Level: String, Codable, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
        var logger: Logger.Level { Logger.Level(rawValue: rawValue)! }
    }

    public enum Format: String, Codable, Sendable, CaseIterable {
        /// swift-log's `StreamLogHandler`: `2026-11-23T21:30:00+0000 info citysim.service : message`.
        case text
        /// One JSON object a line (`JSONLogHandler`).
        case json
    }

    /// Lowest level written. Default info.
    public var level: Level?
    /// Default text.
    public var format: Format?
    /// Level at which each request is logged (method, path, request id) by Hummingbird's
    /// `LogRequestsMiddleware`. Default debug: not written at the default `level`, so a busy
    /// service does not log thousands of lines a second unless asked to.
    public var requests: Level?

    public init(level: Level? = nil, format: Format? = nil, requests: Level? = nil) {
        self.level = level
        self.format = format
        self.requests = requests
    }

    var loggerLevel: Logger.Level { (level ?? .info).logger }
    var requestLevel: Logger.Level { (requests ?? .debug).logger }

    /// A handler of the configured format and level, for `LoggingSystem.bootstrap`.
    public func makeHandler(label: String) -> any LogHandler {
        switch format ?? .text {
        case .json: return JSONLogHandler(label: label, level: loggerLevel)
        case .text:
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = loggerLevel
            return DeferredMetadataLogHandler(handler)
        }
    }

    /// Writes out what the handlers hold (at shutdown).
    public static func flush() {
        JSONLogHandler.flush()
        fflush(nil)  // every C stream: StreamLogHandler's standard output and error
    }
}
