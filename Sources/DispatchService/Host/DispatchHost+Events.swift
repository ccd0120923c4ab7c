import DispatchCore

/// Who an event stream belongs to.
public enum Party: Hashable, Sendable {
    case customer(CustomerID)
    case driver(DriverID)
}

/// A change a customer or driver is told about (offers, taxi codes and ETAs, fares, endings).
public struct ServiceEvent: Sendable, Codable, Equatable {
    /// `offer`, `offer_withdrawn`, `assignment_revoked`, `taxi_assigned`, `taxi_reassigned`,
    /// `no_taxi_available`, `waiting_for_taxi`, `reservation_confirmed`, `expired`, `cancelled`,
    /// `fare_charged`, `ride_completed`.
    public var kind: String
    public var ride: Int
    public var taxiCode: String?
    public var etaSeconds: Double?
    /// Core time (seconds since 1970) of an offer's lapse, a wait's end or an allocation.
    public var at: Double?
    public var amount: Double?

    /// Whether this event ends its ride: completed, rejected (no taxi), expired or cancelled.
    public var endsRide: Bool { ["ride_completed", "no_taxi_available", "expired", "cancelled"].contains(kind) }

    init(_ kind: String, _ ride: RequestID, taxiCode: String? = nil, etaSeconds: Double? = nil,
         at: Double? = nil, amount: Double? = nil) {
        self.kind = kind
        self.ride = ride.rawValue
        self.taxiCode = taxiCode
        self.etaSeconds = etaSeconds
        self.at = at
        self.amount = amount
    }
}

// MARK: - Subscriptions

extension DispatchHost {
    /// A stream of the party's events from now on (live updates). Ends when the consumer stops iterating.
    public func subscribe(_ party: Party) -> AsyncStream<ServiceEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ServiceEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[party, default: [:]][id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(party, id) } }
        return stream
    }

    /// Open subscriptions: of one party, or of everyone when `party` is nil. A stream whose
    /// consumer stopped (a client that disconnected) is no longer counted.
    public func subscriberCount(_ party: Party? = nil) -> Int {
        guard let party else { return subscribers.values.reduce(0) { $0 + $1.count } }
        return subscribers[party]?.count ?? 0
    }

    func unsubscribe(_ party: Party, _ id: Int) {
        subscribers[party]?[id] = nil
        if subscribers[party]?.isEmpty == true { subscribers[party] = nil }
    }

    /// Sends each effect to the parties concerned.
    func publish(_ effects: [Effect]) {
        guard !subscribers.isEmpty else { return }
        for effect in effects {
            for (party, event) in events(of: effect) {
                subscribers[party]?.values.forEach { $0.yield(event) }
            }
        }
    }

    private func events(of effect: Effect) -> [(Party, ServiceEvent)] {
        func customer(_ r: RequestID) -> [Party] { ledger.customer(of: r).map { [.customer($0)] } ?? [] }
        switch effect {
        case .offer(let d, let r, let expiry): return [(.driver(d), ServiceEvent("offer", r, at: expiry))]
        case .offerWithdrawn(let d, let r): return [(.driver(d), ServiceEvent("offer_withdrawn", r))]
        case .assignmentRevoked(let d, let r): return [(.driver(d), ServiceEvent("assignment_revoked", r))]
        case .customerNotified(let r, let c, let code, let eta):
            return [(.customer(c), ServiceEvent("taxi_assigned", r, taxiCode: code, etaSeconds: eta))]
        case .reassigned(let r, let c, let code, let eta):
            return [(.customer(c), ServiceEvent("taxi_reassigned", r, taxiCode: code, etaSeconds: eta))]
        case .noTaxiAvailable(let r, let c): return [(.customer(c), ServiceEvent("no_taxi_available", r))]
        case .waitingForTaxi(let r, let until): return customer(r).map { ($0, ServiceEvent("waiting_for_taxi", r, at: until)) }
        case .reservationConfirmed(let r, let at):
            return customer(r).map { ($0, ServiceEvent("reservation_confirmed", r, at: at)) }
        case .requestExpired(let r, let c): return [(.customer(c), ServiceEvent("expired", r))]
        case .requestCancelled(let r): return customer(r).map { ($0, ServiceEvent("cancelled", r)) }
        case .fareCharged(let r, let d, let amount):
            return (customer(r) + [.driver(d)]).map { ($0, ServiceEvent("fare_charged", r, amount: amount)) }
        case .rideCompleted(let r, let d):
            return (customer(r) + [.driver(d)]).map { ($0, ServiceEvent("ride_completed", r)) }
        case .wake, .reportRecorded, .queueStatus, .arrivalEstimate: return []
        }
    }
}
