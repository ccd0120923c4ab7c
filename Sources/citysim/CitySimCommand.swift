import ArgumentParser

@main
struct CitySimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "citysim",
        abstract: "Simulate a city's taxi service driving the real dispatch core, and measure it.",
        subcommands: [RunCommand.self, SweepCommand.self, MergeCommand.self, PlanFleetCommand.self,
                      PlanDayCommand.self, ServeCommand.self, LoadCommand.self, BenchCommand.self, ViewCommand.self])
}
