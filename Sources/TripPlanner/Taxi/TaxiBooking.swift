import DispatchCore

/// What a taxi trip would be like: how long until pickup, the ride, the fare.
public struct TaxiQuote: Sendable, Equatable {
    /// Seconds from the requested departure until the taxi is there (0 for a reservation).
    public var wait: Double
    public var rideSeconds: Double
    public var rideMetres: Double
    public var fare: Double
    /// Whether the trip would be booked as a reservation (D11) rather than an immediate request.
    public var isReservation: Bool

    public init(wait: Double, rideSeconds: Double, rideMetres: Double, fare: Double, isReservation: Bool) {
        self.wait = wait
        self.rideSeconds = rideSeconds
        self.rideMetres = rideMetres
        self.fare = fare
        self.isReservation = isReservation
    }
}

/// How a booking was made with the taxi service.
public struct TaxiBookingReceipt: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case reservation, immediate }
    public var request: RequestID
    public var kind: Kind
    /// What the dispatch core answered.
    public var effects: [Effect]
}

/// The taxi service as the planner sees it. Times are the planner's: seconds since midnight
/// of the planned day.
public protocol TaxiBooking {
    /// A quote for a ride departing at `departure`, asked at `now`; nil when no taxi can do it
    /// (none available for an immediate ride).
    func quote(from origin: Position, to destination: Position, departure: Double, now: Double) -> TaxiQuote?
    /// Books the ride: a reservation when `departure` is at least the reservation lead after
    /// `now` (D11: 2 h), otherwise an immediate request.
    /// - Throws: the service's refusal.
    func book(from origin: Position, to destination: Position, departure: Double, customer: CustomerID,
              now: Double) throws -> TaxiBookingReceipt
}

/// `TaxiBooking` over a `DispatchCore`: ETAs by `.estimateArrival`, rides and fares by the
/// core's travel model and fare rule, bookings by `.reserveRide` or `.requestRide`.
///
/// ```swift
/// let taxis = DispatchTaxiBooking(core: core, dayStart: 0)
/// let receipt = try taxis.book(from: home, to: work, departure: 9 * 3600, customer: CustomerID(1), now: 6 * 3600)
/// receipt.kind == .reservation
/// ```
public final class DispatchTaxiBooking: TaxiBooking {
    public let core: DispatchCore
    /// The core's time at midnight of the planned day, seconds.
    public let dayStart: Double
    /// How long an immediate request waits for a taxi when none is available (D7), seconds.
    public var patience: Double = 300
    private var nextRequest: Int

    /// - Parameter firstRequestID: the first request id used; ids then count up.
    public init(core: DispatchCore, dayStart: Double, firstRequestID: Int = 1_000_000) {
        self.core = core
        self.dayStart = dayStart
        self.nextRequest = firstRequestID
    }

    private func coreTime(_ now: Double) -> Double { max(core.now, dayStart + now) }

    private func isReservation(departure: Double, now: Double) -> Bool {
        dayStart + departure >= coreTime(now) + core.rules.reservationMinimumLead
    }

    public func quote(from origin: Position, to destination: Position, departure: Double, now: Double) -> TaxiQuote? {
        guard core.city.contains(origin), core.city.contains(destination) else { return nil }
        let reservation = isReservation(departure: departure, now: now)
        var wait = 0.0
        if !reservation {
            guard let effects = try? core.handle(.estimateArrival(origin), at: coreTime(now)),
                  case .arrivalEstimate(_, let eta?)? = effects.first else { return nil }
            wait = eta
        }
        let pickup = dayStart + departure + wait
        let seconds = core.travel.travelTime(from: origin, to: destination, departingAt: pickup)
        let metres = core.travel.roadDistance(from: origin, to: destination)
        return TaxiQuote(wait: wait, rideSeconds: seconds, rideMetres: metres,
                         fare: core.rules.fare.fare(metres: metres, seconds: seconds), isReservation: reservation)
    }

    public func book(from origin: Position, to destination: Position, departure: Double, customer: CustomerID,
                     now: Double) throws -> TaxiBookingReceipt {
        let id = RequestID(nextRequest)
        let reservation = isReservation(departure: departure, now: now)
        let command: Command = reservation
            ? .reserveRide(id, customer: customer, origin: origin, destination: destination, meetingTime: dayStart + departure)
            : .requestRide(id, customer: customer, origin: origin, destination: destination, patience: patience)
        let effects = try core.handle(command, at: coreTime(now))
        nextRequest += 1
        return TaxiBookingReceipt(request: id, kind: reservation ? .reservation : .immediate, effects: effects)
    }
}

extension TaxiBooking {
    /// Books every taxi leg of a plan, in time order.
    /// - Returns: one receipt per taxi leg.
    /// - Throws: the first refusal; legs before it stay booked.
    public func bookTaxis(of plan: DayPlan, customer: CustomerID, now: Double) throws -> [TaxiBookingReceipt] {
        var receipts: [TaxiBookingReceipt] = []
        for leg in plan.trips.flatMap(\.legs) where leg.means == .taxi {
            receipts.append(try book(from: leg.from, to: leg.to, departure: leg.departure, customer: customer, now: now))
        }
        return receipts
    }
}
