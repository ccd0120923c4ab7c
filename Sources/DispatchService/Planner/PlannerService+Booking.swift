import DispatchCore
import Foundation
import TripPlanner

extension PlannerService {
    /// What became of one taxi sub-route of the plan.
    struct BookedLeg: Sendable {
        enum Outcome: String, Sendable {
            /// A D11 reservation, made now.
            case reserved
            /// An immediate request, made now (departure within `requestWindow`).
            case requested
            /// Booked by an earlier call; the ride is still open.
            case alreadyBooked = "already-booked"
            /// Not booked: see `reason`.
            case skipped
            /// Booked by an earlier call for a sub-route the plan no longer has; the ride is still open
            /// (the customer cancels it with `DELETE /v1/rides/{id}` if it is not wanted).
            case stale
        }
        var departure: Double
        var origin: Point
        var destination: Point
        var outcome: Outcome
        var ride: RideSnapshot?
        var reason: String?
    }

    /// How far around its departure a taxi sub-route too close for a reservation is requested at once.
    static let requestWindow = (before: 15.0 * 60, after: 5.0 * 60)

    /// Books the taxi sub-routes of the owner's plan of `date` through the dispatch host: a D11
    /// reservation when the departure is at least the reservation lead ahead, an immediate request
    /// when it is within `requestWindow` of now, nothing otherwise (too late to reserve, too early to
    /// request, or past). Sub-routes booked by an earlier call whose ride is still open are not booked
    /// twice. A refusal of the core (D12: one open request) skips that sub-route with its reason.
    /// Earlier bookings whose sub-route left the plan (after a change of weather, say) and whose ride
    /// is still open come last, as `stale`: nothing is cancelled behind the customer's back.
    func book(owner: Int, date: CivilDate) async throws -> [BookedLeg] {
        let schedule = try await schedule(owner: owner, date: date)
        let customer = CustomerID(owner)
        let lead = await host.reservationLead
        let earlier = try await store.bookings(owner: owner, on: date)
        var result: [BookedLeg] = []
        let taxiLegs = schedule.plan.trips.flatMap(\.legs).filter { $0.means == .taxi }
        for leg in taxiLegs {
            let origin = Point(leg.from), destination = Point(leg.to)
            var booked = BookedLeg(departure: leg.departure, origin: origin, destination: destination, outcome: .skipped)
            if let previous = earlier.first(where: { $0.matches(departure: leg.departure, origin: origin, destination: destination) }),
               let ride = await host.ride(RequestID(previous.ride)), !ride.status.isTerminal {
                booked.outcome = .alreadyBooked
                booked.ride = ride
                result.append(booked)
                continue
            }
            let departure = schedule.midnight + leg.departure
            let now = await host.now
            do {
                if departure >= now + lead {
                    booked.ride = try await host.reserveRide(customer: customer, from: leg.from, to: leg.to, meetingTime: departure)
                    booked.outcome = .reserved
                } else if departure >= now - Self.requestWindow.after, departure <= now + Self.requestWindow.before {
                    booked.ride = try await host.requestRide(customer: customer, from: leg.from, to: leg.to, patience: 0)
                    booked.outcome = .requested
                } else {
                    booked.reason = departure < now
                        ? "the departure has passed"
                        : "too late for a reservation (D11: \(Int(lead / 60)) min ahead) and too early for a request "
                            + "(within \(Int(Self.requestWindow.before / 60)) min of departure)"
                }
            } catch let error as DispatchError {
                booked.reason = Problem(error).code
            }
            if let ride = booked.ride {
                try await store.insertBooking(PlannerBooking(owner: owner, date: date, departure: leg.departure, origin: origin,
                                                             destination: destination, ride: ride.id.rawValue))
            }
            result.append(booked)
        }
        for previous in earlier where !taxiLegs.contains(where: {
            previous.matches(departure: $0.departure, origin: Point($0.from), destination: Point($0.to))
        }) {
            guard let ride = await host.ride(RequestID(previous.ride)), !ride.status.isTerminal else { continue }
            result.append(BookedLeg(departure: previous.departure, origin: previous.origin, destination: previous.destination,
                                    outcome: .stale, ride: ride, reason: "no longer in the plan"))
        }
        return result
    }
}

extension DispatchHost {
    /// D11: how far ahead a reservation must be made, seconds.
    var reservationLead: Double { core.rules.reservationMinimumLead }
}
