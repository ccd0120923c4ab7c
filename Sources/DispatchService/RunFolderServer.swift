import Foundation
import Hummingbird

/// Serves a run folder's files (the simulation viewer's `viewer.html`, `trace.json`,
/// `trace.bin`) over HTTP on a loopback address, so a browser can fetch the trace (browsers do not
/// let a page read files next to it from `file://`). `GET /` redirects to `/viewer.html`.
///
/// Invariant: only files under the folder are served (Hummingbird's `FileMiddleware`).
public enum RunFolderServer {
    /// Runs until the process is stopped; `ready` is called once the socket listens.
    public static func run(folder: String, host: String = "127.0.0.1", port: Int,
                           ready: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        let router = Router()
        router.add(middleware: FileMiddleware(folder))
        router.get("/") { _, _ in Response(status: .seeOther, headers: [.location: "/viewer.html"]) }
        let app = Application(router: router, configuration: .init(address: .hostname(host, port: port)),
                              onServerRunning: { _ in ready("http://\(host):\(port)/viewer.html") })
        try await app.runService()
    }
}
