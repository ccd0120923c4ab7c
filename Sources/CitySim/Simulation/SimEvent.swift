import DispatchCore

/// What can happen in the simulated city. Driver events carry the driver's
/// generation: an event whose generation is stale (the driver has since been
/// given something else to do) is dropped.
///
/// Invariant: 16 bytes at most (requests and timers in their 32-bit forms), so a
/// pending event with its 16-byte key takes 32 bytes in the event heap, whose
/// sifting is the loop's largest cost (`EventLayoutTests` pins it).
enum SimEvent {
    /// The next customer arrives.
    case arrival
    /// The next customer of a trip replay or an OD matrix arrives (`CitySimulation.realDemand`).
    case tracedArrival
    /// The next planner user's taxi leg reaches the core (`CitySimulation.plannerBookings`).
    case plannerLeg
    case shiftStarts(driver: Int32)
    case shiftEnds(driver: Int32)
    /// The driver answers an offer.
    ///
    /// (`accepts` last: its spare bits then hold the case tag, which keeps the event in 16 bytes.)
    case answer(driver: Int32, request: EventRequest, generation: UInt32, accepts: Bool)
    case reachesPickup(driver: Int32, request: EventRequest, generation: UInt32)
    case reachesDestination(driver: Int32, request: EventRequest)
    /// A driver who was not available (decline, disconnect, break, lost ride) turns available.
    case turnsAvailable(driver: Int32, generation: UInt32)
    /// An idle drifting taxi reaches a hotspot.
    case driftArrives(driver: Int32, generation: UInt32)
    case customerCancels(request: EventRequest)
    /// A timer the dispatch core asked for.
    case coreTimer(EventTimer)
    /// Hourly sampling of the fleet and the queues.
    case hourTick(hour: Int)
}

/// A request as an event carries it: the simulator numbers its requests 0, 1, 2 …, so 32 bits hold any
/// run's (2 × 10⁹ requests; creating a larger one traps).
struct EventRequest: Equatable {
    let raw: Int32
    init(_ id: RequestID) { raw = Int32(id.rawValue) }
    var id: RequestID { RequestID(Int(raw)) }
}

/// A core timer as an event carries it: `TimerID` in 12 bytes instead of 24.
struct EventTimer: Equatable {
    let kind: TimerID.Kind
    let generation: UInt32
    let request: Int32
    init(_ timer: TimerID) {
        kind = timer.kind
        generation = timer.generation
        request = Int32(timer.request.rawValue)
    }
    var timer: TimerID { TimerID(kind: kind, request: RequestID(Int(request)), generation: generation) }
}
