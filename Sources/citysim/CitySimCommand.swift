import ArgumentParser

@main
struct CitySimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "citysim",
        abstract: "Simulate a city's taxi service driving the real dispatch core, and measure it.",
        subcommands: [RunCommand.self, BenchCommand.self])
}
