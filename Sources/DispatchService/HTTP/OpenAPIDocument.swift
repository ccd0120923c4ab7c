import Foundation
import Hummingbird
import NIOCore

/// The service's OpenAPI 3.1 document, `Resources/openapi.json` (a SwiftPM resource, plain JSON
/// with sorted paths so that new routes are easy to add), served at `GET /openapi.json` to anyone.
///
/// Invariant: every route `buildRouter` registers is in it with its method; `OpenAPITests`
/// fails when a route is added without documentation, or documented without a route.
enum OpenAPIDocument {
    /// The document's bytes, read once from the module's bundle; nil if the resource is missing.
    static let data: Data? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }

    /// `GET /openapi.json`.
    @Sendable static func serve(_ request: Request, context: some RequestContext) throws -> Response {
        guard let data else { throw Problem(.internalServerError, "internal", detail: "the OpenAPI document is missing") }
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
