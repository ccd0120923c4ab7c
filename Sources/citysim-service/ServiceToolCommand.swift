import ArgumentParser
import CommandLineSupport

/// `citysim-service`: the commands that need a network stack (the HTTP service, its load generator and the
/// trace viewer's server), in an executable of their own so that `citysim`, the simulator, links none of
/// Hummingbird, NIO's transports, PostgresNIO, GRDB or swift-crypto. `citysim serve|load|view …` hands its
/// arguments to this executable unchanged (`ServiceForwarding` in `citysim`), so either name works.
@main
struct ServiceToolCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "citysim-service",
        abstract: "The dispatch service over HTTP, its load generator and the trace viewer (also as `citysim serve|load|view`).",
        discussion: """
        Exit status: 0 done; 1 load's end-state check failed; 2 an input file cannot be used; 4 a run or a \
        write failed; 64 a usage error. Errors go to standard error.
        """,
        version: ToolVersion.text,
        subcommands: [ServeCommand.self, LoadCommand.self, ViewCommand.self])
}
