// citysim-gate: the fixed workloads of the benchmark regression gate (.ci/bench).
//
//   BenchGate list          # key <TAB> operations <TAB> unit <TAB> name, one workload a line
//   BenchGate run KEY       # runs one workload (run it under callgrind to count it)
//   BenchGate scenario PATH [KEY=VALUE ...] [--out DIR]
//                           # one whole run of a scenario, measured like the workloads (Scripts/count-instructions.sh)
//
// It measures nothing itself: .ci/bench_gate.py runs each workload under
// `valgrind --tool=callgrind`, counting only inside the `citysim_gate_measured_*` functions.

import Foundation

/// Prints the message on standard error and exits 2.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BenchGate: \(message)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list" where arguments.count == 1:
    for workload in gateWorkloads {
        print("\(workload.key)\t\(workload.operations)\t\(workload.unit)\t\(workload.name)")
    }
case "run" where arguments.count == 2:
    guard let workload = gateWorkloads.first(where: { $0.key == arguments[1] }) else {
        fail("no workload '\(arguments[1])'; known: \(gateWorkloads.map(\.key).joined(separator: ", "))")
    }
    do {
        try workload.run()
    } catch {
        fail("workload \(workload.key) failed: \(error)")
    }
case "scenario" where arguments.count >= 2:
    var rest = Array(arguments.dropFirst(2)), out: String?
    if let flag = rest.firstIndex(of: "--out") {
        guard flag + 1 < rest.count else { fail("--out needs a folder") }
        out = rest[flag + 1]
        rest.removeSubrange(flag...(flag + 1))
    }
    do {
        try countScenario(path: arguments[1], overrides: rest, out: out)
    } catch {
        fail("scenario \(arguments[1]): \(error)")
    }
default:
    fail("usage: BenchGate list | BenchGate run <workload> | BenchGate scenario <path> [key=value ...] [--out dir]")
}
