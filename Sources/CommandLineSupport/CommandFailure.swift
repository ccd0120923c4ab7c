import ArgumentParser
import Foundation

/// The exit statuses of `citysim` and `citysim-service` (also in the README's "Command line" section). A failing command writes
/// `error: …` to standard error and exits with one of these; nothing is written to standard output.
///
/// Invariant: 0 only when the command did all it was asked; usage errors (unknown option, a value that does
/// not parse) are ArgumentParser's 64.
public enum ExitStatus {
    /// A check failed or the result is incomplete: `load`'s end-state check, `merge` with runs missing.
    public static let incomplete: Int32 = 1
    /// An input file cannot be used: scenario, experiment, day or service config, a folder that is not a sweep.
    public static let badInput: Int32 = 2
    /// `run --check-invariants` found the dispatch core broken.
    public static let invariantViolated: Int32 = 3
    /// Writing results failed, or a run failed while simulating.
    public static let failed: Int32 = 4
}

/// Writes `text` and a newline to standard error, unbuffered, in as many `write` calls as it takes.
/// `FileHandle.standardError.write(Data(text.utf8))` did the same through the runtime's first conformance
/// lookups for `Data`'s byte-sequence casts: ~0.7 ms at the end of every `citysim run` (perf).
public func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress.unsafelyUnwrapped + offset, bytes.count - offset)
            if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { return }
        }
    }
}

/// Reports `error: message` on standard error and returns the exit to throw.
public func failure(_ message: String, status: Int32) -> ExitCode {
    printError("error: \(message)")
    return ExitCode(status)
}

/// Runs `body`; any error it throws becomes `error: <context>: <error>` on standard error and exit `status`.
public func attempt<T>(_ context: String? = nil, status: Int32, _ body: () throws -> T) throws -> T {
    do { return try body() } catch let exit as ExitCode { throw exit } catch {
        throw failure(context.map { "\($0): \(error)" } ?? "\(error)", status: status)
    }
}

/// The version `citysim --version` prints, with the commit stamped at build time.
public enum ToolVersion {
    public static let number = "1.0.0"
    /// The commit the binary was built from (`unknown` outside a git checkout); see the BuildStamp plugin.
    public static var commit: String { BuildStamp.commit }
    /// Recorded in result files; nil when the build could not tell.
    public static var recordedCommit: String? { commit == "unknown" ? nil : commit }
    public static var text: String { "citysim \(number) (commit \(commit))" }
}
