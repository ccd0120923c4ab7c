import ArgumentParser
import CommandLineSupport
import DispatchService
import Foundation

/// `citysim view RUN_DIR`: serves a run recorded with `citysim run --trace` to a browser.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Serve a run recorded with `citysim run --trace` (its viewer.html) on a loopback port.")

    @Argument(help: "The run folder (with trace.bin, trace.json and viewer.html).")
    var runDirectory: String

    @Option(help: "Listen on this port.")
    var port = 8090

    func run() async throws {
        let folder = URL(fileURLWithPath: runDirectory)
        for name in ["trace.bin", "trace.json", "viewer.html"]
        where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            printError("error: \(folder.appendingPathComponent(name).path): missing; record the run with `citysim run SCENARIO --trace`")
            throw ExitCode(2)
        }
        try await RunFolderServer.run(folder: folder.path, port: port) { url in
            FileHandle.standardOutput.write(Data("citysim view: \(url)  (Ctrl-C stops)\n".utf8))
        }
    }
}
