import Foundation
import Hummingbird

/// Registration, login, logout and password reset.
///
/// `POST /v1/accounts` `{"email","password","name"}` → 201 account;
/// `POST /v1/auth/login` `{"email","password"}` → `{"token","expires_at","account"}`;
/// `DELETE /v1/auth/token`; `GET /v1/me`;
/// `PATCH /v1/me` `{"name","current_password","new_password"}` (each optional; a new password needs
/// the current one and ends the account's other sessions) → the account;
/// `POST /v1/auth/password-reset` `{"email"}` → 202 (a one-time token goes to the outbox);
/// `POST /v1/auth/password-reset/confirm` `{"token","new_password"}` → 204.
struct AccountController {
    let accounts: AccountService

    struct Registration: Decodable { var email: String; var password: String; @Omittable var name: String? }
    struct Credentials: Decodable { var email: String; var password: String }
    struct ResetRequest: Decodable { var email: String }
    struct ResetConfirmation: Decodable { var token: String; var newPassword: String }
    /// Each field may be left out, but not sent as `null`.
    struct ProfileChange: Decodable {
        @Omittable var name: String?
        @Omittable var currentPassword: String?
        @Omittable var newPassword: String?
    }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.post("accounts", use: register)
        routes.post("auth/login", use: login)
        routes.delete("auth/token", use: logout)
        routes.get("me", use: me)
        routes.patch("me", use: editProfile)
        routes.post("auth/password-reset", use: requestReset)
        routes.post("auth/password-reset/confirm", use: confirmReset)
        return routes
    }

    @Sendable func register(_ request: Request, context: ServiceRequestContext) async throws -> EditedResponse<AccountBody> {
        let body = try await request.decode(as: Registration.self, context: context)
        let account = try await accounts.register(email: body.email, password: body.password, name: body.name ?? "")
        return EditedResponse(status: .created, response: AccountBody(account))
    }

    @Sendable func login(_ request: Request, context: ServiceRequestContext) async throws -> SessionBody {
        let body = try await request.decode(as: Credentials.self, context: context)
        let session = try await accounts.login(email: body.email, password: body.password, client: context.client)
        return SessionBody(token: session.token, expiresAt: Date(timeIntervalSince1970: session.expiresAt),
                           account: AccountBody(session.account))
    }

    @Sendable func logout(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        try await accounts.logout(try context.require(.customer, .driver, .admin))
        return .noContent
    }

    @Sendable func me(_ request: Request, context: ServiceRequestContext) async throws -> AccountBody {
        let identity = try context.require(.customer, .driver, .admin)
        guard let account = try await accounts.store.account(id: identity.accountID) else { throw Problem.unauthenticated }
        return AccountBody(account)
    }

    @Sendable func editProfile(_ request: Request, context: ServiceRequestContext) async throws -> AccountBody {
        let identity = try context.require(.customer, .driver, .admin)
        let body = try await request.decode(as: ProfileChange.self, context: context)
        return AccountBody(try await accounts.updateProfile(of: identity, name: body.name, currentPassword: body.currentPassword,
                                                            newPassword: body.newPassword))
    }

    @Sendable func requestReset(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        let body = try await request.decode(as: ResetRequest.self, context: context)
        try await accounts.requestPasswordReset(email: body.email)
        return .accepted
    }

    @Sendable func confirmReset(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        let body = try await request.decode(as: ResetConfirmation.self, context: context)
        try await accounts.resetPassword(token: body.token, newPassword: body.newPassword)
        return .noContent
    }
}
