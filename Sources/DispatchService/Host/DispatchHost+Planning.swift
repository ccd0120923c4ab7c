import DispatchCore
import Foundation
import TripPlanner

/// What the trip planner needs to plan one customer's day; the host adds the city's travel
/// model, the taxi service and the time.
struct DayPlanJob: Sendable {
    var appointments: [Appointment]
    /// `now` is overwritten with the host's time.
    var conditions: DayConditions
    var criterion: Criterion
    var transit: TransitNetwork?
    /// Seconds since 1970 at the day's origin in the user's time zone (`CivilDate.origin(in:)`).
    var midnight: Double
}

extension DispatchHost {
    /// The host's time, seconds since 1970 (never behind the core's).
    var now: Double { max(clock.now(), core.now) }

    /// Plans a day with the core's travel model for cars. Taxi quotes for today come from the live
    /// core (D14 `.estimateArrival` for departures within the reservation lead, D11 reservations
    /// after it) through `DispatchTaxiBooking`; other days are quoted from the travel model alone.
    /// Planning runs on the host's executor: quotes read the core, and a day of a few appointments
    /// plans in milliseconds (the planner's node budget bounds the worst case).
    func plan(_ job: DayPlanJob) -> DayPlan {
        let now = self.now
        let midnight = job.midnight
        var conditions = job.conditions
        conditions.now = now - midnight
        let isToday = now >= midnight && now < midnight + 86_400
        let taxi: any TaxiBooking = isToday
            ? DispatchTaxiBooking(core: core, dayStart: midnight)
            : TravelModelTaxiQuotes(city: core.city, travel: core.travel, rules: core.rules, midnight: midnight)
        let planner = DayPlanner(conditions: conditions, carTravel: core.travel, transit: job.transit, taxi: taxi)
        return planner.plan(job.appointments, criterion: job.criterion)
    }
}

/// Taxi quotes for a day other than today: no live ETA (the taxi is assumed there at departure),
/// the ride and fare from the city's travel model and fare rule, nothing before `now`. Quotes
/// only: bookings go through the host.
struct TravelModelTaxiQuotes: TaxiBooking {
    let city: CityGeometry
    let travel: any TravelTimeEstimator
    let rules: DispatchRules
    /// Seconds since 1970 at midnight of the planned day.
    let midnight: Double

    func quote(from origin: Position, to destination: Position, departure: Double, now: Double) -> TaxiQuote? {
        guard departure >= now, city.contains(origin), city.contains(destination) else { return nil }
        let seconds = travel.travelTime(from: origin, to: destination, departingAt: midnight + departure)
        let metres = travel.roadDistance(from: origin, to: destination)
        return TaxiQuote(wait: 0, rideSeconds: seconds, rideMetres: metres, fare: rules.fare.fare(metres: metres, seconds: seconds),
                         isReservation: departure >= now + rules.reservationMinimumLead)
    }

    func book(from origin: Position, to destination: Position, departure: Double, customer: CustomerID,
              now: Double) throws -> TaxiBookingReceipt {
        throw PlannerError.invalidInput("travel-model quotes cannot book; book through the host")
    }
}
