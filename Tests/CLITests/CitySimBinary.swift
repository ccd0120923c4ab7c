import Foundation
import TestSupport

/// The built `citysim` executable, run as a user runs it: arguments, working folder and environment in;
/// exit status, standard output and standard error out.
///
/// Found, in order: `CITYSIM_BINARY`; next to the running test bundle (the build folder `swift test` made);
/// `.build/debug/citysim` of this package. Nil when none exists (the tests then skip, saying so).
struct CitySimBinary {
    let url: URL

    /// The package's root folder (where Package.swift is).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let located: CitySimBinary? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["CITYSIM_BINARY"] { candidates.append(URL(fileURLWithPath: path)) }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        for _ in 0..<4 {   // the test runner may sit inside a bundle (xctest/Contents/MacOS)
            candidates.append(folder.appendingPathComponent("citysim"))
            folder = folder.deletingLastPathComponent()
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/citysim"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }.map(CitySimBinary.init)
    }()

    static let missingReason = "no built citysim binary (set CITYSIM_BINARY or run `swift build` first)"

    /// What one run of the binary did.
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary to its end.
    /// - Parameters:
    ///   - directory: working folder (default: the package root, so `Scenarios/…` paths work).
    ///   - environment: added to this process's environment.
    func run(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while it runs, so a full pipe cannot block it.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box(), group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errBox.data = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errBox.data, as: UTF8.self))
    }
}

/// A fresh empty folder under the temporary directory, removed when the test process exits.
func temporaryFolder(_ label: String) throws -> URL { try ScratchFolders.make("citysim-cli-\(label)") }

/// A folder holding `smoke.yaml` and `tiny.yaml`, an experiment of 2 policies × 2 replications = 4 short runs.
func tinyExperimentFolder(_ label: String, hours: Double) throws -> URL {
    let folder = try temporaryFolder(label)
    try FileManager.default.copyItem(at: CitySimBinary.packageRoot.appendingPathComponent("Scenarios/smoke.yaml"),
                                     to: folder.appendingPathComponent("smoke.yaml"))
    try """
    name: tiny
    scenario: smoke.yaml
    replications: 2
    set: ["duration_hours=\(hours)", "warmup_hours=0"]
    grid:
      dispatch.policy: [zone-fifo, nearest-idle]
    metrics: [wait_s.p90]
    """.write(to: folder.appendingPathComponent("tiny.yaml"), atomically: true, encoding: .utf8)
    return folder
}
