import DispatchCore
import Hummingbird

/// Administrators manage drivers: add (unique licence and taxi code), remove, invalidate credentials.
///
/// `POST /v1/admin/drivers` `{"email","password","name","licence","taxi_code"}` → 201 account;
/// `GET /v1/admin/drivers`; `DELETE /v1/admin/drivers/{id}` (refused with 409 during an offer or ride);
/// `POST /v1/admin/drivers/{id}/invalidate` → 204 (sessions end, the password matches nothing).
struct AdminController {
    let host: DispatchHost
    let accounts: AccountService

    struct NewDriver: Decodable {
        var email: String
        var password: String
        /// May be left out (empty), but not sent as `null`.
        @Omittable var name: String?
        var licence: String
        var taxiCode: String
    }

    struct DriverList: ResponseEncodable { var drivers: [AccountBody] }

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.post("drivers", use: create)
        routes.get("drivers", use: list)
        routes.delete("drivers/{id}", use: remove)
        routes.post("drivers/{id}/invalidate", use: invalidate)
        return routes
    }

    @Sendable func create(_ request: Request, context: ServiceRequestContext) async throws -> EditedResponse<AccountBody> {
        _ = try context.require(.admin)
        let body = try await request.decode(as: NewDriver.self, context: context)
        // Lengths in code points, as the document's minLength/maxLength; identifiers are kept as sent.
        let licence = body.licence, code = body.taxiCode
        guard (1...40).contains(licence.unicodeScalars.count) else {
            throw AccountError.invalidInput("licence must be 1 to 40 characters long", field: "licence")
        }
        guard (1...20).contains(code.unicodeScalars.count) else {
            throw AccountError.invalidInput("taxi_code must be 1 to 20 characters long", field: "taxi_code")
        }
        let account = try await accounts.create(email: body.email, password: body.password, name: body.name ?? "",
                                                role: .driver, licence: licence, taxiCode: code)
        do {
            try await host.execute(.addDriver(DriverID(account.id), taxiCode: code))
        } catch {
            // No half-created driver: an account the core does not know goes again, so the email,
            // licence and taxi code are free for a retry. (A crash in between is mended at start.)
            do { try await accounts.store.deleteAccount(id: account.id) } catch {
                context.logger.error("driver account \(account.id) left without a taxi: \(error)")
            }
            throw error
        }
        return EditedResponse(status: .created, response: AccountBody(account))
    }

    @Sendable func list(_ request: Request, context: ServiceRequestContext) async throws -> DriverList {
        _ = try context.require(.admin)
        return DriverList(drivers: try await accounts.store.accounts(role: .driver).filter { !$0.disabled }.map(AccountBody.init))
    }

    @Sendable func remove(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        let account = try await driverAccount(context)
        try await host.retireDriver(DriverID(account.id))
        try await accounts.disable(accountID: account.id)
        return .noContent
    }

    @Sendable func invalidate(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        let account = try await driverAccount(context)
        try await accounts.invalidateCredentials(accountID: account.id)
        return .noContent
    }

    /// The active driver account named by `{id}`, or 404.
    private func driverAccount(_ context: ServiceRequestContext) async throws -> Account {
        _ = try context.require(.admin)
        let id = try context.pathID()
        guard let account = try await accounts.store.account(id: id), account.role == .driver, !account.disabled else {
            throw DispatchError.unknownDriver(DriverID(id))
        }
        return account
    }
}
