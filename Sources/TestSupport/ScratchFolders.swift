import Foundation

/// Fresh folders under the temporary directory for tests, removed when the test process exits.
///
/// Tests write scenarios, sweeps and databases into folders of their own; without this, every run of the
/// suite left dozens of them in `/tmp` (thousands on a developer's machine after a few days). Set
/// `CITYSIM_KEEP_TEST_FILES=1` to keep them, e.g. to look at what a failing test wrote.
///
/// Invariant: every folder `make` returns exists, is empty when returned, has a name no other call returned,
/// and is removed with everything in it at the process's normal exit (`atexit`) unless the variable is set.
public enum ScratchFolders {
    /// A new empty folder named `prefix-<UUID>` under the temporary directory.
    public static func make(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        registry.add(url)
        return url
    }

    private static let registry = Registry()

    /// The folders made so far; removes them at exit.
    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var urls: [URL] = []

        init() {
            guard ProcessInfo.processInfo.environment["CITYSIM_KEEP_TEST_FILES"] == nil else { return }
            atexit { ScratchFolders.registry.removeAll() }
        }

        func add(_ url: URL) { lock.withLock { urls.append(url) } }

        func removeAll() {
            let all = lock.withLock { () -> [URL] in defer { urls = [] }; return urls }
            for url in all { try? FileManager.default.removeItem(at: url) }
        }
    }
}
