import Foundation
import Hummingbird

/// The request context of every route: the caller's identity once the bearer
/// token is checked, the client address for rate limits, the body size limit
/// and JSON in snake_case with RFC 3339 dates (every `date-time` form the OpenAPI document allows is read).
public struct ServiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `AuthenticationMiddleware`; nil for guests.
    public var identity: Identity?
    /// The client's IP address ("local" when there is none, as in router tests).
    public let client: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? "local"
    }

    /// Request bodies above 16 KiB are refused with 413 (the largest legitimate body is well under 1 KiB).
    public var maxUploadSize: Int { Self.maximumUpload }
    static let maximumUpload = 16 * 1024

    /// One decoder for all requests: Hummingbird asks for it per request, and building
    /// one (with its options storage) each time was measurable. Nothing mutates it after
    /// this initialiser, and Foundation's `JSONDecoder` is `Sendable`.
    private static let sharedDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.dateTime(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected an RFC 3339 date-time, got '\(text)'")
            }
            return date
        }
        return decoder
    }()

    /// One encoder for all responses, for the same reason; never mutated after this initialiser.
    static let sharedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    public var requestDecoder: JSONDecoder { Self.sharedDecoder }

    public var responseEncoder: JSONEncoder { Self.sharedEncoder }

    /// The signed-in caller, if their role is one of `roles`.
    /// - Throws: 401 for guests, 403 for other roles.
    public func require(_ roles: Role...) throws -> Identity {
        guard let identity else { throw Problem.unauthenticated }
        guard roles.contains(identity.role) else {
            throw Problem(.forbidden, "forbidden", detail: "this route is for \(roles.map(\.rawValue).joined(separator: " or "))")
        }
        return identity
    }
}
