import ArgumentParser
import CommandLineSupport
import CitySim
import Foundation

/// `citysim bench`: the macro benchmark. Runs a base scenario over demand ×
/// {1, 10, 100} and fleet × {1, 10, 100}, each cell in a child process (its own
/// peak RSS), and writes `<out>/<name>.json` and `<out>/<name>.svg`.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Macro benchmark: wall time and peak memory over a demand × fleet matrix, with growth exponents.")

    @Option(help: "Name of the result files.")
    var name = "matrix"

    @Option(help: "Output folder.")
    var out = "Results/bench"

    @Flag(help: "Factors 1× and 10× only (under a minute).")
    var quick = false

    @Option(help: "The base scenario.")
    var scenario = "Scenarios/rush-hour.yaml"

    @Option(help: "Simulated hours of every cell (overrides duration_hours).")
    var hours: Double = 6

    @Option(help: "Runs of each cell; the fastest wall time and the largest peak memory are kept.")
    var repeats = 3

    @Option(help: "A cell whose first run takes longer (wall, s) is not repeated, and cells larger in both factors are dropped.")
    var maxCellSeconds: Double = 30

    @Option(name: .customLong("set"), help: "Extra override of the base scenario (repeatable).")
    var overrides: [String] = []

    @Option(help: .hidden)
    var cell: String?

    func validate() throws {
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
        guard hours > 0 else { throw ValidationError("--hours must be positive") }
    }

    func run() throws {
        let factors = quick ? BenchMatrix.quickFactors : BenchMatrix.fullFactors
        let matrix = BenchMatrix(scenarioPath: scenario, baseOverrides: ["duration_hours=\(hours)"] + overrides,
                                 demandFactors: factors, fleetFactors: factors)
        if let cell {  // the child: one cell, one JSON line on standard output
            let parts = cell.split(separator: ":").compactMap { Double($0) }
            guard parts.count == 2 else { throw ValidationError("--cell wants DEMAND:FLEET") }
            let measured = try matrix.runCell(demand: parts[0], fleet: parts[1])
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            print(String(decoding: try encoder.encode(measured), as: UTF8.self))
            return
        }
        let started = Date()
        let meter = ProgressMeter(label: "bench \(name)", total: Double(matrix.pairs.count), unit: "cells", delay: 0)
        var cells: [BenchCell] = [], dropped: [String] = []
        var tooSlow: [(demand: Double, fleet: Double)] = []
        for pair in matrix.pairs {
            if let slow = tooSlow.first(where: { pair.demand >= $0.demand && pair.fleet >= $0.fleet }) {
                dropped.append("demand ×\(pair.demand), fleet ×\(pair.fleet): larger than demand ×\(slow.demand), "
                    + "fleet ×\(slow.fleet), which took over \(maxCellSeconds) s")
                meter.step()
                continue
            }
            meter.clear()
            var measured = try runChild(pair.demand, pair.fleet)
            if measured.wallS > maxCellSeconds {
                tooSlow.append(pair)
            } else {
                for _ in 1..<repeats { measured.merge(try runChild(pair.demand, pair.fleet)) }
            }
            printError("demand ×\(fmt(pair.demand)) fleet ×\(fmt(pair.fleet)): \(measured.requests) requests, "
                + "\(measured.taxis) taxis, \(measured.events) events, wall " + String(format: "%.3f s (CPU %.3f s)", measured.wallS, measured.cpuS)
                + ", peak " + String(format: "%.0f MiB", measured.peakRssMebibytes))
            cells.append(measured)
            meter.step()
        }
        meter.finish()
        let command = (["citysim bench"] + CommandLine.arguments.dropFirst(2)).joined(separator: " ")
        let report = BenchReport(name: name, baseScenario: scenario, baseOverrides: matrix.baseOverrides, command: command,
                                 machine: BenchMachine.current(commit: ToolVersion.recordedCommit),
                                 demandFactors: factors, fleetFactors: factors, cells: cells, dropped: dropped)
        let folder = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ResultWriter.json(report).write(to: folder.appendingPathComponent("\(name).json"))
        try Data(BenchPlot.svg(report).utf8).write(to: folder.appendingPathComponent("\(name).svg"))
        print(report.fitTable)
        for line in dropped { print("dropped: \(line)") }
        printError(String(format: "bench done in %.1f s → ", Date().timeIntervalSince(started)) + folder.appendingPathComponent(name).path + ".{json,svg}")
    }

    private func fmt(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

    /// Runs one cell in a child process of this same binary.
    private func runChild(_ demand: Double, _ fleet: Double) throws -> BenchCell {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench", "--scenario", scenario, "--hours", String(hours), "--cell", "\(demand):\(fleet)"]
            + (quick ? ["--quick"] : []) + overrides.flatMap { ["--set", $0] }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw failure("cell demand ×\(demand) fleet ×\(fleet) failed (exit \(process.terminationStatus))", status: ExitStatus.failed)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(BenchCell.self, from: data)
    }
}
