// Minimal Hummingbird 2 server: GET /health/live -> 200 {"status":"live"}, no middleware.
import Foundation
import Hummingbird

let port = Int(CommandLine.arguments.dropFirst().first ?? "18421") ?? 18421
let router = Router()
router.get("/health/live") { _, _ -> Response in
    Response(
        status: .ok,
        headers: [.contentType: "application/json"],
        body: .init(byteBuffer: ByteBuffer(string: #"{"status":"live"}"#))
    )
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
print("bare-hb pid \(ProcessInfo.processInfo.processIdentifier) port \(port)")
try await app.runService()
