import DispatchCore
import Hummingbird
import TripPlanner

/// A customer's preferences and planned days: the schedule is computed on every read from the
/// stored appointments, preferences and the city's conditions of the date.
///
/// `GET|PUT /v1/planner/preferences` (PUT replaces all; missing fields take their defaults);
/// `GET /v1/planner/days/{date}` → the schedule (409 `home-not-set` before preferences name a home);
/// `POST /v1/planner/days/{date}/primary` `{"appointment_id"}` → the schedule with the overlap resolved;
/// `POST /v1/planner/days/{date}/book` → the taxi sub-routes booked (D11 reservation ≥ 2 h ahead,
/// an immediate request near departure).
struct PlannerDayController {
    let planner: PlannerService

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("preferences", use: preferences)
        routes.put("preferences", use: savePreferences)
        routes.get("days/{date}", use: day)
        routes.post("days/{date}/primary", use: primary)
        routes.post("days/{date}/book", use: book)
        return routes
    }

    @Sendable func preferences(_ request: Request, context: ServiceRequestContext) async throws -> PlannerProfile {
        let owner = try context.require(.customer).accountID
        return try await planner.store.profile(owner: owner) ?? PlannerProfile()
    }

    @Sendable func savePreferences(_ request: Request, context: ServiceRequestContext) async throws -> PlannerProfile {
        let owner = try context.require(.customer).accountID
        let body = try await request.decodePlanner(PlannerInput.ProfileBody.self, context: context)
        let profile = try PlannerInput.profile(body, city: await planner.host.city)
        try await planner.store.saveProfile(profile, owner: owner)
        return profile
    }

    @Sendable func day(_ request: Request, context: ServiceRequestContext) async throws -> DayScheduleBody {
        let owner = try context.require(.customer).accountID
        let date = try context.pathDate()
        return DayScheduleBody(try await planner.schedule(owner: owner, date: date), transitAvailable: planner.transit != nil)
    }

    @Sendable func primary(_ request: Request, context: ServiceRequestContext) async throws -> DayScheduleBody {
        let owner = try context.require(.customer).accountID
        let date = try context.pathDate()
        let body = try await request.decodePlanner(PlannerInput.PrimaryBody.self, context: context)
        guard let id = body.appointmentId else { throw Problem.invalidField("appointment_id", "missing") }
        try await planner.choosePrimary(id, owner: owner, date: date)
        return DayScheduleBody(try await planner.schedule(owner: owner, date: date), transitAvailable: planner.transit != nil)
    }

    @Sendable func book(_ request: Request, context: ServiceRequestContext) async throws -> BookingList {
        let owner = try context.require(.customer).accountID
        let date = try context.pathDate()
        return BookingList(try await planner.book(owner: owner, date: date), midnight: Double(date.dayNumber) * 86_400)
    }
}

extension ServiceRequestContext {
    /// The `{date}` path parameter (`YYYY-MM-DD`), or 422 naming `date`.
    func pathDate() throws -> CivilDate {
        try PlannerInput.date(parameters.get("date"), field: "date")
    }
}
