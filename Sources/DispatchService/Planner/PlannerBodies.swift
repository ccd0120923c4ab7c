import DispatchCore
import Foundation
import Hummingbird
import TripPlanner

// MARK: - Response bodies of /v1/planner (snake_case on the wire, times ISO 8601 UTC)

extension PlannerAppointment: ResponseEncodable {}
extension PlannerProfile: ResponseEncodable {}
extension CityDayConditions: ResponseEncodable {}

struct AppointmentList: ResponseEncodable, Decodable, Sendable {
    var appointments: [PlannerAppointment]
}

/// A planned day: the time-ordered steps (activities and the trips between them, each trip with its
/// sub-routes), where the flexible activities were placed, the warnings, and the conditions used.
struct DayScheduleBody: ResponseEncodable, Decodable, Sendable {
    struct Leg: Codable, Sendable {
        var means: TravelMeans
        var from: Point
        var to: Point
        var departure: Date
        var arrival: Date
        var distanceM: Double
        var costEur: Double
        var co2G: Double
        var detail: String
    }

    struct Trip: Codable, Sendable {
        var from: Point
        var to: Point
        var departure: Date
        var arrival: Date
        var distanceM: Double
        var costEur: Double
        var co2G: Double
        var legs: [Leg]
    }

    struct Step: Codable, Sendable {
        /// `activity` or `trip`.
        var kind: String
        var start: Date
        var end: Date
        /// The activity, or where the trip leads (nil: home).
        var appointmentId: Int?
        var title: String
        var place: Point
        var trip: Trip?
    }

    struct Placement: Codable, Sendable {
        var appointmentId: Int
        var start: Date
        var end: Date
    }

    struct Warning: Codable, Sendable {
        /// overlap, unreachable, not-placed, too-many-flexible.
        var kind: String
        var appointmentIds: [Int]
        var message: String
    }

    struct Occurrence: Codable, Sendable {
        var appointmentId: Int
        /// scheduled, in-progress, archived (over), unscheduled (left out) or cancelled (by a primary choice).
        var state: AppointmentState
    }

    struct Totals: Codable, Sendable {
        var travelS: Double
        var distanceM: Double
        var costEur: Double
        var co2G: Double
    }

    var date: CivilDate
    var criterion: Criterion
    var steps: [Step]
    var placements: [Placement]
    var warnings: [Warning]
    var occurrences: [Occurrence]
    var totals: Totals
    /// Whether the search stopped at its node budget (the best plan found, not proven optimal).
    var truncated: Bool
    var conditions: CityDayConditions
    var transitAvailable: Bool
}

extension DayScheduleBody {
    init(_ schedule: PlannerService.Schedule, transitAvailable: Bool) {
        let plan = schedule.plan
        func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: schedule.midnight + seconds) }
        func id(_ appointment: AppointmentID?) -> Int? { appointment.flatMap { Int($0.rawValue) } }
        func trip(_ trip: TripPlanner.Trip) -> Trip {
            Trip(from: Point(trip.from), to: Point(trip.to), departure: time(trip.departure), arrival: time(trip.arrival),
                 distanceM: trip.distance, costEur: trip.cost, co2G: trip.co2, legs: trip.legs.map { leg in
                     Leg(means: leg.means, from: Point(leg.from), to: Point(leg.to), departure: time(leg.departure),
                         arrival: time(leg.arrival), distanceM: leg.distance, costEur: leg.cost, co2G: leg.co2, detail: leg.detail)
                 })
        }
        date = plan.date
        criterion = plan.criterion
        steps = plan.steps.map { step in
            Step(kind: step.kind.rawValue, start: time(step.start), end: time(step.end), appointmentId: id(step.appointment),
                 title: step.title, place: Point(step.place), trip: step.trip.map(trip))
        }
        let flexible = Set(schedule.appointments.filter { $0.window != nil }.map(\.id))
        placements = plan.steps.compactMap { step in
            guard step.kind == .activity, let id = id(step.appointment), flexible.contains(id) else { return nil }
            return Placement(appointmentId: id, start: time(step.start), end: time(step.end))
        }
        warnings = plan.warnings.map { Warning(kind: $0.kind.rawValue, appointmentIds: $0.appointments.compactMap(id), message: $0.message) }
        let now = schedule.now - schedule.midnight
        occurrences = plan.states.compactMap { key, state in
            guard let appointment = Int(key) else { return nil }
            let activity = plan.activity(AppointmentID(key))
            guard state == .scheduled, let first = activity.first, let last = activity.last else {
                return Occurrence(appointmentId: appointment, state: state)
            }
            let model = Appointment(id: AppointmentID(key), title: "", place: first.place, date: plan.date,
                                    timing: .fixed(start: first.start, end: last.end, breaksAllowed: false), state: state)
            return Occurrence(appointmentId: appointment, state: model.state(at: now, start: first.start, end: last.end))
        }.sorted { $0.appointmentId < $1.appointmentId }
        totals = Totals(travelS: plan.totals.travelSeconds, distanceM: plan.totals.distance, costEur: plan.totals.cost,
                        co2G: plan.totals.co2)
        truncated = plan.truncated
        conditions = schedule.conditions
        self.transitAvailable = transitAvailable
    }
}

/// The outcome of `POST /v1/planner/days/{date}/book`: one entry per taxi sub-route of the plan.
struct BookingList: ResponseEncodable, Decodable, Sendable {
    struct Entry: Codable, Sendable {
        var departure: Date
        var origin: Point
        var destination: Point
        /// reserved, requested, already-booked, skipped, or stale (an open ride booked earlier for a
        /// sub-route the plan no longer has).
        var outcome: String
        var rideId: Int?
        var ride: RideBody?
        /// Why a skipped sub-route was not booked (a problem code for the core's refusals).
        var reason: String?
    }
    var bookings: [Entry]
    /// The ride ids of the plan's taxi sub-routes (booked now or earlier), in departure order.
    var rideIds: [Int]

    init(_ legs: [PlannerService.BookedLeg], midnight: Double) {
        bookings = legs.map { leg in
            Entry(departure: Date(timeIntervalSince1970: midnight + leg.departure), origin: leg.origin,
                  destination: leg.destination, outcome: leg.outcome.rawValue, rideId: leg.ride?.id.rawValue,
                  ride: leg.ride.map(RideBody.init), reason: leg.reason)
        }
        rideIds = bookings.filter { $0.outcome != PlannerService.BookedLeg.Outcome.stale.rawValue }.compactMap(\.rideId)
    }
}
