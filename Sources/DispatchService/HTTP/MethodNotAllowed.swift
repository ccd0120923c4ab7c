import Foundation
import Hummingbird

/// The methods each documented path answers, from the OpenAPI document (whose routes equal the router's,
/// see `OpenAPITests`), so that a known path asked with another method gets 405 and an `Allow` header.
///
/// Invariant: `allowedMethods(for:)` is empty exactly when no documented path template matches the path;
/// a template segment `{name}` matches any one non-empty segment.
struct DocumentedRoutes: Sendable {
    struct Template: Sendable {
        /// Literal segments, or nil for a `{parameter}`.
        var segments: [String?]
        var methods: [String]
    }

    let templates: [Template]

    /// The routes of the served document (none if it is missing).
    static let served = DocumentedRoutes(document: OpenAPIDocument.data ?? Data())

    static let httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    init(document: Data) {
        let paths = ((try? JSONSerialization.jsonObject(with: document)) as? [String: Any])?["paths"] as? [String: Any] ?? [:]
        templates = paths.compactMap { path, item in
            guard let operations = item as? [String: Any] else { return nil }
            let methods = Self.httpMethods.filter { operations[$0] != nil }.map { $0.uppercased() }
            let segments = path.split(separator: "/").map { part -> String? in
                part.hasPrefix("{") && part.hasSuffix("}") ? nil : String(part)
            }
            return Template(segments: segments, methods: methods)
        }
    }

    /// The methods documented for `path` (upper case, in `httpMethods` order), or [] for an unknown path.
    func allowedMethods(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        var found = Set<String>()
        for template in templates where template.segments.count == parts.count {
            if zip(template.segments, parts).allSatisfy({ literal, part in literal.map { $0 == part } ?? !part.isEmpty }) {
                found.formUnion(template.methods)
            }
        }
        return Self.httpMethods.map { $0.uppercased() }.filter(found.contains)
    }
}

/// Answers 405 `method-not-allowed` with `Allow: GET, PUT` when the router found no route for a request
/// whose path is documented with other methods; other unmatched requests stay 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    var routes = DocumentedRoutes.served

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Only the router's own "no route" is an HTTPError; handlers' 404s are typed problems.
            let allowed = routes.allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method.rawValue) else { throw error }
            throw Problem(.methodNotAllowed, "method-not-allowed",
                          detail: "\(request.method.rawValue) is not allowed on \(request.uri.path); allowed: \(allowed.joined(separator: ", "))",
                          headers: [.allow: allowed.joined(separator: ", ")])
        }
    }
}
