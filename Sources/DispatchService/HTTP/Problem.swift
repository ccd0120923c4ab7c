import DispatchCore
import Foundation
import Hummingbird
import NIOCore

/// An RFC 9457 problem document (`application/problem+json`). `type` is
/// `urn:citysim:problem:CODE` with a stable CODE clients can switch on.
///
/// ```json
/// {"type":"urn:citysim:problem:unknown-ride","title":"unknown-ride","status":404,"detail":"unknown request 7"}
/// ```
public struct Problem: Error, HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var detail: String
    public var headers: HTTPFields = [:]
    /// The request field at fault (`end`, `recurrence.weekdays[1]`), for validation problems; an
    /// RFC 9457 extension member, left out when nil.
    public var field: String?

    public init(_ status: HTTPResponse.Status, _ code: String, detail: String, headers: HTTPFields = [:],
                field: String? = nil) {
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
        self.field = field
    }

    struct Document: Codable, Equatable {
        var type: String
        var title: String
        var status: Int
        var detail: String
        var field: String?
    }

    var document: Document {
        Document(type: "urn:citysim:problem:\(code)", title: code, status: status.code, detail: detail, field: field)
    }

    /// The content type of every problem answer.
    static let contentType = "application/problem+json"

    /// The document's JSON, keys sorted: the body of every problem answer (the router's and `RideFastPath`'s).
    var json: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return try encoder.encode(document)
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = Self.contentType
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try json)))
    }

    static let unauthenticated = Problem(.unauthorized, "unauthenticated", detail: "a valid bearer token is required",
                                         headers: [.wwwAuthenticate: "Bearer"])
    static func notFound(_ what: String) -> Problem { Problem(.notFound, "not-found", detail: what) }
    static func badRequest(_ why: String) -> Problem { Problem(.badRequest, "invalid-request", detail: why) }
}

// MARK: - From the errors of the layers below

extension Problem {
    /// The problem for any error a route threw: typed errors get their own codes, HTTP errors keep
    /// their status, anything else is a 500 that says nothing of the internals.
    init(from error: any Error) {
        switch error {
        case let problem as Problem: self = problem
        case let error as DispatchError: self.init(error)
        case let error as AccountError: self.init(error)
        case let error as HostError: self.init(.serviceUnavailable, "storage-unavailable", detail: error.description)
        case let error as HTTPError:
            let code: String = switch error.status {
            case .contentTooLarge: "body-too-large"
            case .notFound: "not-found"
            case .methodNotAllowed: "method-not-allowed"
            case .badRequest: "invalid-request"
            default: error.status.code >= 500 ? "internal" : "http-\(error.status.code)"
            }
            self.init(error.status, code, detail: error.body ?? error.status.reasonPhrase)
        case is NIOTooManyBytesError:
            self.init(.contentTooLarge, "body-too-large", detail: "the request body is larger than the limit")
        case is DecodingError: self.init(.badRequest, "invalid-request", detail: "the body is not the expected JSON")
        default: self.init(.internalServerError, "internal", detail: "internal error")
        }
    }

    init(_ error: DispatchError) {
        let detail = error.description
        switch error {
        case .unknownDriver: self.init(.notFound, "unknown-driver", detail: detail)
        case .unknownRequest, .notAParty: self.init(.notFound, "unknown-ride", detail: detail)
        case .duplicateDriver, .duplicateRequest: self.init(.conflict, "duplicate", detail: detail)
        case .positionOutsideCity: self.init(.unprocessableContent, "position-outside-city", detail: detail)
        case .invalidTime: self.init(.unprocessableContent, "invalid-time", detail: detail)
        case .invalidPatience: self.init(.unprocessableContent, "invalid-patience", detail: detail)
        case .reservationTooSoon(let meeting, let earliest):
            func time(_ t: Double) -> String { Date(timeIntervalSince1970: t).formatted(.iso8601) }
            self.init(.unprocessableContent, "reservation-too-soon", detail: "a reservation must be made well before "
                      + "its meeting time (D11: at least 2 h by default): the earliest meeting time now is "
                      + "\(time(earliest)), asked for \(time(meeting)); request a taxi now instead")
        case .illegalDriverTransition: self.init(.conflict, "illegal-driver-state", detail: detail)
        case .illegalRequestTransition: self.init(.conflict, "illegal-ride-state", detail: detail)
        case .notOfferedToDriver: self.init(.conflict, "not-offered", detail: detail)
        case .offerExpired: self.init(.conflict, "offer-expired", detail: detail)
        case .customerHasOpenRequest: self.init(.conflict, "open-ride-exists", detail: detail)
        case .cancellationWindowClosed: self.init(.conflict, "cancellation-window-closed", detail: detail)
        case .reportNotAllowed: self.init(.conflict, "report-not-allowed", detail: detail)
        case .cityInUse: self.init(.conflict, "city-in-use", detail: detail)
        // Not caused by the caller: the host keeps time monotonic and the configuration was checked at start.
        case .timeWentBackwards, .invalidConfiguration: self.init(.internalServerError, "internal", detail: "internal error")
        }
    }

    init(_ error: AccountError) {
        switch error {
        case .invalidCredentials: self.init(.unauthorized, "invalid-credentials", detail: "wrong email or password")
        case .tooManyAttempts(let wait):
            self.init(.tooManyRequests, "too-many-attempts", detail: "too many login attempts; retry later",
                      headers: [.retryAfter: String(Int(wait.rounded(.up)))])
        case .invalidToken: self = .unauthenticated
        case .invalidResetToken: self.init(.badRequest, "invalid-reset-token", detail: "the reset token is unknown, used or expired")
        case .invalidInput(let why, let field): self.init(.unprocessableContent, "invalid-input", detail: why, field: field)
        case .taken(let what):
            self.init(.conflict, "taken", detail: "\(what) is already taken", field: what.replacingOccurrences(of: " ", with: "_"))
        case .unknownAccount: self.init(.notFound, "unknown-account", detail: "no such account")
        case .wrongPassword: self.init(.forbidden, "wrong-password", detail: "the current password is wrong")
        }
    }
}

/// Turns every error thrown below into a problem document.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let problem = Problem(from: error)
            if problem.status.code >= 500 { context.logger.error("\(request.method) \(request.uri.path): \(error)") }
            throw problem
        }
    }
}

/// Reads `Authorization: Bearer TOKEN` when present; a bad token is a 401 even on public routes.
struct AuthenticationMiddleware: RouterMiddleware {
    let accounts: AccountService

    func handle(_ request: Request, context: ServiceRequestContext,
                next: (Request, ServiceRequestContext) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.hasPrefix("Bearer ") else { throw Problem.unauthenticated }
        var context = context
        context.identity = try await accounts.authenticate(token: String(header.dropFirst(7)))
        return try await next(request, context)
    }
}
