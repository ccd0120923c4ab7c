import Foundation
import Hummingbird
import NIOCore

/// The web console's pages (plain HTML, CSS and JavaScript modules under `Resources/web`, a
/// SwiftPM resource folder), read once from the module's bundle and served from memory:
/// `GET /` is `index.html`, `GET /web/NAME` any other file of the folder.
///
/// Invariant: every file goes out with its content type by extension, a strong `ETag` (a hash of
/// its bytes) and `Cache-Control: no-cache`, so a browser revalidates and gets `304 Not Modified`
/// while the file is unchanged, and the new file at once after an upgrade; a page may load scripts,
/// styles and data only from this origin (`Content-Security-Policy`). Only files of the folder are
/// served: a name with a path separator, or one not in the folder, is a 404 problem.
struct WebConsole: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
        var etag: String
    }

    /// File name → file.
    let files: [String: File]

    /// The bundle's `web` folder, empty when the resource folder is missing.
    static let shared = WebConsole(folder: Bundle.module.url(forResource: "web", withExtension: nil))

    static let contentTypes = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "json": "application/json",
        "png": "image/png", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8",
    ]

    static let securityPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        + "frame-ancestors 'none'; form-action 'self'"

    init(folder: URL?) {
        var files: [String: File] = [:]
        let names = folder.flatMap { try? FileManager.default.contentsOfDirectory(atPath: $0.path) } ?? []
        for name in names {
            guard let folder, let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            else { continue }
            let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
            files[name] = File(bytes: ByteBuffer(bytes: data), contentType: type, etag: Self.etag(of: data))
        }
        self.files = files
    }

    /// A strong entity tag: FNV-1a 64 of the bytes and their count.
    static func etag(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "\"\(String(hash, radix: 16))-\(data.count)\""
    }

    func addRoutes(to router: Router<ServiceRequestContext>) {
        router.get("/") { request, _ in try self.serve("index.html", request) }
        router.get("web/{file}") { request, context in
            try self.serve(context.parameters.get("file") ?? "", request)
        }
    }

    func serve(_ name: String, _ request: Request) throws -> Response {
        guard !name.contains("/"), !name.hasPrefix("."), let file = files[name] else {
            throw Problem.notFound("no page or file named \(name)")
        }
        var headers: HTTPFields = [
            .contentType: file.contentType, .eTag: file.etag, .cacheControl: "no-cache",
            .init("X-Content-Type-Options")!: "nosniff", .contentSecurityPolicy: Self.securityPolicy,
        ]
        if request.headers[values: .ifNoneMatch].contains(where: { $0.split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == file.etag } }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.bytes))
    }
}
