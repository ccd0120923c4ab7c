import DispatchCore
import TripPlanner

/// The taxi as a planner user sees it when planning ahead: rides timed by the simulated city's
/// travel model and priced by the scenario's fare rule (D13), the wait of an immediate ride an
/// assumed figure (`planner.expected_taxi_wait_min`) since no fleet state exists before the day.
///
/// Invariant: a ride departing at least `reservationLead` after `now` is quoted as a reservation
/// (no wait), any other as an immediate ride with `expectedWait`. Quotes only: the simulator books
/// the chosen legs itself, so `book` always throws.
struct PlannerTaxiQuotes: TaxiBooking {
    let geometry: CityGeometry
    let travel: CityTravel
    let fare: FareRule
    let reservationLead: Double
    let expectedWait: Double

    func isReservation(departure: Double, now: Double) -> Bool { departure >= now + reservationLead }

    func quote(from origin: Position, to destination: Position, departure: Double, now: Double) -> TaxiQuote? {
        guard geometry.contains(origin), geometry.contains(destination) else { return nil }
        let reservation = isReservation(departure: departure, now: now)
        let wait = reservation ? 0 : expectedWait
        let seconds = travel.travelTime(from: origin, to: destination, departingAt: departure + wait)
        let metres = travel.roadDistance(from: origin, to: destination)
        return TaxiQuote(wait: wait, rideSeconds: seconds, rideMetres: metres,
                         fare: fare.fare(metres: metres, seconds: seconds), isReservation: reservation)
    }

    func book(from origin: Position, to destination: Position, departure: Double, customer: CustomerID,
              now: Double) throws -> TaxiBookingReceipt {
        throw PlannerError.invalidInput("planner users' taxi legs are booked by the simulation, not through quotes")
    }
}
