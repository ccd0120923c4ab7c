import ArgumentParser
import CommandLineSupport
import Foundation

/// A `citysim` subcommand carried by the `citysim-service` executable: its arguments, `--help` included
/// (`captureForPassthrough` takes every one), go to `citysim-service <name>` unchanged, which replaces this process (`execv`), so the exit status,
/// standard output and standard error are that command's own.
///
/// Why a second executable: the service stack (Hummingbird, NIO's transports, PostgresNIO, GRDB,
/// swift-crypto) is most of a release build's compile time, and its 6,292 protocol conformance records (of 14,566)
/// lengthen every first conformance lookup of every `citysim run` (Results/bench/speed.md, "Twenty-third
/// pass"). `citysim` links none of it.
///
/// Invariant: the executable run is the `citysim-service` in the same folder as this `citysim` (as
/// `swift build` leaves them); without one, the command fails with exit status 4 and says how to build it.
protocol ServiceSubcommand: ParsableCommand {
    /// Everything after the subcommand's name, as typed.
    var arguments: [String] { get }
}

extension ServiceSubcommand {
    func run() throws {
        let name = Self.configuration.commandName ?? "serve"
        throw ServiceExecutable.replaceProcess(subcommand: name, arguments: arguments)
    }
}

/// Finds and starts the `citysim-service` executable beside the running `citysim`.
enum ServiceExecutable {
    static let fileName = "citysim-service"

    /// The path of `citysim-service` beside `executable` (a path to the running `citysim`).
    static func sibling(of executable: String) -> String {
        URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(fileName).path
    }

    /// The running executable's own path (`/proc/self/exe` on Linux, else the first argument).
    static var runningExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Replaces this process with `citysim-service subcommand arguments…`; returns only on failure, with the
    /// exit to throw after saying why on standard error.
    static func replaceProcess(subcommand: String, arguments: [String]) -> ExitCode {
        let path = sibling(of: runningExecutable)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            return failure("""
                citysim \(subcommand) is carried by the \(fileName) executable, and there is none at \(path); \
                build it beside citysim: swift build --product \(fileName) (add -c release for a release build)
                """, status: ExitStatus.failed)
        }
        let argv = [fileName, subcommand] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(path, cArguments)
        let reason = String(cString: strerror(errno))
        return failure("citysim \(subcommand): cannot start \(path): \(reason)", status: ExitStatus.failed)
    }
}

/// `citysim serve …` = `citysim-service serve …`.
struct ServeForwarding: ServiceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the dispatch core over HTTP (accounts, rides, drivers, planner; SQLite or PostgreSQL storage).",
        discussion: "Runs `citysim-service serve` with the same arguments; `citysim serve --help` lists them.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

/// `citysim load …` = `citysim-service load …`.
struct LoadForwarding: ServiceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load-test a running `citysim serve`: per-endpoint latency (HDR), throughput, end-state check.",
        discussion: "Runs `citysim-service load` with the same arguments; `citysim load --help` lists them.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}

/// `citysim view …` = `citysim-service view …`.
struct ViewForwarding: ServiceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Serve a run recorded with `citysim run --trace` (its viewer.html) on a loopback port.",
        discussion: "Runs `citysim-service view` with the same arguments; `citysim view --help` lists them.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
}
