import ArgumentParser
import CommandLineSupport
import DispatchService
import Foundation
import Logging

/// `citysim serve --config service.yaml`: the HTTP dispatch service around the same core the simulator drives.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the dispatch core over HTTP (accounts, rides, drivers, planner; SQLite or PostgreSQL storage).")

    @Option(help: "The service config (YAML): scenario, database, host, port, first administrator.")
    var config = "Service/service.yaml"

    @Option(help: "Listen on this port instead of the config's.")
    var port: Int?

    @Option(help: "Use this database (a SQLite file or a postgres:// URL) instead of the config's.")
    var database: String?

    @Option(help: "Run the service clock this many times faster than the wall clock (load tests), instead of the config's clock_speed.")
    var clockSpeed: Double?

    func run() async throws {
        var loaded: ServiceConfig
        do { loaded = try ServiceConfig.load(path: config) } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        if let port { loaded.port = port }
        if let database { loaded.database = database }
        if let clockSpeed { loaded.clockSpeed = clockSpeed }
        do { try loaded.validate() } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
        let log = loaded.log ?? LogSettings()
        DispatchServiceApp.bootstrapLogging(log)
        DispatchServiceApp.returnLargeBlocksWhenFreed()
        let service: DispatchServiceApp
        do { service = try await DispatchServiceApp.open(config: loaded) } catch let error as ConfigError {
            // A config that validates but names an unusable input (a bad GTFS feed): exit 2 like the checks above.
            printError("error: \(error)")
            throw ExitCode(2)
        } catch let error as CheckpointError {
            // The database's newest checkpoint cannot be read (newer format, corrupted): do not start from a wrong state.
            printError("error: \(error)")
            throw ExitCode(2)
        }
        service.bootstrapMetrics()
        service.bootstrapTracing()
        let speed = loaded.clockSpeed.map { $0 == 1 ? "" : "  clock ×\($0)" } ?? ""
        if log.format == .json {
            var logger = Logger(label: "citysim.service")
            logger.logLevel = .info
            logger.info("citysim serve: listening", metadata: [
                "url": "http://\(loaded.host):\(loaded.port)", "database": "\(loaded.redactedDatabase)"])
            LogSettings.flush()
        } else {
            // Unbuffered, so the start line reaches a log file even if the process is later killed.
            FileHandle.standardOutput.write(Data(
                "citysim serve: http://\(loaded.host):\(loaded.port)  database \(loaded.redactedDatabase)\(speed)\n".utf8))
        }
        try await service.run()
    }
}
