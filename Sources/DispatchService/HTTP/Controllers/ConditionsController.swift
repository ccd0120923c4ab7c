import Hummingbird
import TripPlanner

/// Administrators set what the city is like on a date: rain by hour and public-transport strikes.
/// Every planned day of that date uses them from its next read on.
///
/// `PUT /v1/admin/conditions/{date}` `{"rain_hours":[13,14],"strikes":[{"from":"16:00","until":"20:00"}]}`
/// (a strike without `from`/`until` lasts all day) → 200 the stored conditions;
/// `GET /v1/admin/conditions/{date}` → the stored conditions (a date never set is dry, no strike).
struct ConditionsController {
    let planner: PlannerService

    var routes: RouteCollection<ServiceRequestContext> {
        let routes = RouteCollection(context: ServiceRequestContext.self)
        routes.get("conditions/{date}", use: show)
        routes.put("conditions/{date}", use: replace)
        return routes
    }

    @Sendable func show(_ request: Request, context: ServiceRequestContext) async throws -> CityDayConditions {
        _ = try context.require(.admin)
        return try await planner.store.conditions(on: try context.pathDate()) ?? CityDayConditions()
    }

    @Sendable func replace(_ request: Request, context: ServiceRequestContext) async throws -> CityDayConditions {
        _ = try context.require(.admin)
        let date = try context.pathDate()
        let conditions = try PlannerInput.conditions(try await request.decodePlanner(PlannerInput.ConditionsBody.self,
                                                                                   context: context))
        try await planner.store.saveConditions(conditions, on: date)
        return conditions
    }
}
