import DispatchCore
import Foundation
import Hummingbird
import NIOCore

/// The service's OpenAPI 3.1 document, `Resources/openapi.json` (a SwiftPM resource, plain JSON
/// with sorted paths so that new routes are easy to add), served at `GET /openapi.json` to anyone.
///
/// Invariant: every route `buildRouter` registers is in it with its method; `OpenAPITests`
/// fails when a route is added without documentation, or documented without a route. The served copy
/// states the current city's width and height as the `maximum` of every coordinate (the file says
/// `minimum: 0` only, as the city is set at run time), so clients and contract tests know which
/// points the service accepts; and it lists the time zones `time_zone` accepts (this Foundation's IANA names).
enum OpenAPIDocument {
    /// The document's bytes, read once from the module's bundle; nil if the resource is missing.
    static let data: Data? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }

    /// The document with `city`'s bounds on the coordinates: the `Point` schema's `x` and `y`, and the
    /// `x` and `y` query parameters; nil if the resource is missing or not a JSON object.
    static func document(for city: CityGeometry) -> Data? {
        guard let data, var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        let bounds = ["x": city.width, "y": city.height]
        if var components = root["components"] as? [String: Any], var schemas = components["schemas"] as? [String: Any],
           var point = schemas["Point"] as? [String: Any], var properties = point["properties"] as? [String: Any] {
            for (name, maximum) in bounds {
                guard var property = properties[name] as? [String: Any] else { continue }
                property["maximum"] = maximum
                properties[name] = property
            }
            point["properties"] = properties
            schemas["Point"] = point
            if var preferences = schemas["Preferences"] as? [String: Any],
               var fields = preferences["properties"] as? [String: Any], var zone = fields["time_zone"] as? [String: Any] {
                zone["enum"] = PlannerProfile.timeZoneNames
                fields["time_zone"] = zone
                preferences["properties"] = fields
                schemas["Preferences"] = preferences
            }
            components["schemas"] = schemas
            root["components"] = components
        }
        if var paths = root["paths"] as? [String: Any] {
            for (path, item) in paths {
                guard var item = item as? [String: Any] else { continue }
                for (method, operation) in item {
                    guard var operation = operation as? [String: Any],
                          let parameters = operation["parameters"] as? [[String: Any]] else { continue }
                    operation["parameters"] = parameters.map { parameter -> [String: Any] in
                        guard parameter["in"] as? String == "query", let name = parameter["name"] as? String,
                              let maximum = bounds[name], var schema = parameter["schema"] as? [String: Any],
                              schema["type"] as? String == "number" else { return parameter }
                        var parameter = parameter
                        schema["maximum"] = maximum
                        parameter["schema"] = schema
                        return parameter
                    }
                    item[method] = operation
                }
                paths[path] = item
            }
            root["paths"] = paths
        }
        return try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    }

    /// `GET /openapi.json` for the service around `host`.
    static func serve(host: DispatchHost) -> @Sendable (Request, ServiceRequestContext) async throws -> Response {
        { _, _ in
            guard let data = document(for: await host.city) else {
                throw Problem(.internalServerError, "internal", detail: "the OpenAPI document is missing")
            }
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }
    }
}
