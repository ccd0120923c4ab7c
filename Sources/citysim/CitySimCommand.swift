import ArgumentParser
import CommandLineSupport

@main
struct CitySimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "citysim",
        abstract: "Simulate a city's taxi service driving the real dispatch core, and measure it.",
        discussion: """
        Exit status: 0 done; 1 a check failed or the result is incomplete (load's end-state check, merge with \
        runs missing); 2 an input file cannot be used; 3 run --check-invariants found the core broken; \
        4 a run or a write failed; 64 a usage error. Errors go to standard error.
        """,
        version: ToolVersion.text,
        subcommands: [RunCommand.self, SweepCommand.self, MergeCommand.self, PlanFleetCommand.self,
                      PlanDayCommand.self, ServeForwarding.self, LoadForwarding.self, BenchCommand.self, ViewForwarding.self,
                      FitDemandCommand.self])
}
