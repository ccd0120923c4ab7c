import ArgumentParser
import DispatchService

/// `citysim serve --config service.yaml`: the HTTP dispatch service around the same core the simulator drives.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the dispatch core over HTTP (accounts, rides, drivers; SQLite storage).")

    @Option(help: "The service config (YAML): scenario, database, host, port, first administrator.")
    var config = "Scenarios/service.yaml"

    @Option(help: "Listen on this port instead of the config's.")
    var port: Int?

    func run() async throws {
        var loaded: ServiceConfig
        do { loaded = try ServiceConfig.load(path: config) } catch {
            throw CleanExit.message("error: \(error)")
        }
        if let port { loaded.port = port }
        let service = try await DispatchServiceApp.open(config: loaded)
        print("citysim serve: http://\(loaded.host):\(loaded.port)  database \(loaded.redactedDatabase)")
        try await service.run()
    }
}
