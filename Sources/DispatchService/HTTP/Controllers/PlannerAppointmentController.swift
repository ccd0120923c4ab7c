import DispatchCore
import Hummingbird
import TripPlanner

/// A customer's appointments for the trip planner (Travlendar+): create, list (by date), show,
/// replace, delete, cancel. Every appointment is its owner's alone; another customer's id is a 404.
///
/// `POST /v1/planner/appointments` `{"title","date","place":{"x","y"},"start","end","breaks_allowed"}` (fixed) or
/// `{…,"window":{"start","end"},"duration_min"}` (flexible), with optional `recurrence` `{"weekdays":[…],"until"}`,
/// `passengers`, `allowed_means`, `forbidden_means`, `template` → 201 appointment;
/// `GET /v1/planner/appointments[?date=YYYY-MM-DD]`; `GET|PUT|DELETE /v1/planner/appointments/{id}`;
/// `POST /v1/planner/appointments/{id}/cancel`. Bad fields are 422 `invalid-field` naming the field.
struct PlannerAppointmentController {
    let planner: PlannerService

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.post("appointments", use: create)
        routes.get("appointments", use: list)
        routes.get("appointments/{id}", use: show)
        routes.put("appointments/{id}", use: replace)
        routes.delete("appointments/{id}", use: remove)
        routes.post("appointments/{id}/cancel", use: cancel)
        return routes
    }

    @Sendable func create(_ request: Request, context: ServiceRequestContext) async throws -> EditedResponse<PlannerAppointment> {
        let owner = try context.require(.customer).accountID
        let body = try await request.decodePlanner(PlannerInput.AppointmentBody.self, context: context)
        let appointment = try PlannerInput.appointment(body, id: 0, owner: owner, city: await planner.host.city)
        return EditedResponse(status: .created, response: try await planner.store.insertAppointment(appointment))
    }

    @Sendable func list(_ request: Request, context: ServiceRequestContext) async throws -> AppointmentList {
        let owner = try context.require(.customer).accountID
        let date = try request.uri.queryParameters.get("date").map { try PlannerInput.date($0, field: "date") }
        return AppointmentList(appointments: try await planner.appointments(owner: owner, on: date))
    }

    @Sendable func show(_ request: Request, context: ServiceRequestContext) async throws -> PlannerAppointment {
        let owner = try context.require(.customer).accountID
        let appointment = try await planner.appointment(try context.pathID(), owner: owner)
        var shown = appointment
        shown.state = appointment.state(at: planner.host.clock.now(), in: try await planner.timeZone(owner: owner))
        return shown
    }

    @Sendable func replace(_ request: Request, context: ServiceRequestContext) async throws -> PlannerAppointment {
        let owner = try context.require(.customer).accountID
        let old = try await planner.appointment(try context.pathID(), owner: owner)
        let body = try await request.decodePlanner(PlannerInput.AppointmentBody.self, context: context)
        guard old.state != .cancelled else {
            throw Problem(.conflict, "illegal-appointment-state", detail: "appointment \(old.id) is cancelled")
        }
        var appointment = try PlannerInput.appointment(body, id: old.id, owner: owner, city: await planner.host.city)
        appointment.state = old.state
        try await planner.store.updateAppointment(appointment)
        return appointment
    }

    @Sendable func remove(_ request: Request, context: ServiceRequestContext) async throws -> HTTPResponse.Status {
        let owner = try context.require(.customer).accountID
        let appointment = try await planner.appointment(try context.pathID(), owner: owner)
        try await planner.store.deleteAppointment(id: appointment.id)
        return .noContent
    }

    @Sendable func cancel(_ request: Request, context: ServiceRequestContext) async throws -> PlannerAppointment {
        let owner = try context.require(.customer).accountID
        return try await planner.cancel(try context.pathID(), owner: owner)
    }
}
