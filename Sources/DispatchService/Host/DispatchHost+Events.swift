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
    /// `fare_charged`, `ride_completed`, `picked_up`, and `taxi_position` (to the customer, after the assigned
    /// taxi reports where it is).
    public var kind: String
    public var ride: Int
    public var taxiCode: String?
    public var etaSeconds: Double?
    /// Core time (seconds since 1970) of an offer's lapse, a wait's end or an allocation.
    public var at: Double?
    public var amount: Double?
    /// The taxi's position (`taxi_position`), metres from the south-west corner.
    public var x: Double?
    public var y: Double?
    /// The event's id in its party's stream (`EPOCH.N`, see `EventReplay`); not part of its data.
    public var eventID: String?

    enum CodingKeys: String, CodingKey { case kind, ride, taxiCode, etaSeconds, at, amount, x, y }

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
        subscribe(party, resumingAfter: nil).events
    }

    /// A subscription as `subscribe(_:)`, resumed: `latestID` is the id of the party's latest
    /// event now, and `missed` the party's events after `lastEventID` (nil when no id was given
    /// or the events after it are no longer kept: the client must re-read the state). Taken in
    /// one step, so no event falls between `missed` and the stream.
    public func subscribe(_ party: Party, resumingAfter lastEventID: String?)
        -> (events: AsyncStream<ServiceEvent>, latestID: String, missed: [ServiceEvent]?) {
        let (stream, continuation) = AsyncStream.makeStream(of: ServiceEvent.self, bufferingPolicy: .bufferingNewest(256))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[party, default: [:]][id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(party, id) } }
        let latest = replay.track(party)
        return (stream, latest, lastEventID.flatMap { replay.missed(by: party, after: $0) })
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
        guard !subscribers.isEmpty || !replay.isEmpty else { return }
        for effect in effects {
            for (party, event) in events(of: effect) {
                deliver(event, to: party)
            }
        }
    }

    /// Hands one event to every open stream of the party, numbered and kept for resumes.
    func deliver(_ event: ServiceEvent, to party: Party) {
        var event = event
        replay.record(&event, for: party)
        subscribers[party]?.values.forEach { $0.yield(event) }
    }

    /// The event with the position of the taxi now serving its ride, when there is one.
    func located(_ event: ServiceEvent) -> ServiceEvent {
        var event = event
        if let p = taxiPosition(for: RequestID(event.ride)) { event.x = p.x; event.y = p.y }
        return event
    }

    private func events(of effect: Effect) -> [(Party, ServiceEvent)] {
        func customer(_ r: RequestID) -> [Party] { ledger.customer(of: r).map { [.customer($0)] } ?? [] }
        switch effect {
        case .offer(let d, let r, let expiry): return [(.driver(d), ServiceEvent("offer", r, at: expiry))]
        case .offerWithdrawn(let d, let r): return [(.driver(d), ServiceEvent("offer_withdrawn", r))]
        case .assignmentRevoked(let d, let r): return [(.driver(d), ServiceEvent("assignment_revoked", r))]
        case .customerNotified(let r, let c, let d, let eta):
            return [(.customer(c), located(ServiceEvent("taxi_assigned", r, taxiCode: core.taxiCode(of: d), etaSeconds: eta)))]
        case .reassigned(let r, let c, let d, let eta):
            return [(.customer(c), located(ServiceEvent("taxi_reassigned", r, taxiCode: core.taxiCode(of: d), etaSeconds: eta)))]
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
