import DispatchCore

/// What can happen in the simulated city. Driver events carry the driver's
/// generation: an event whose generation is stale (the driver has since been
/// given something else to do) is dropped.
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
    case answer(driver: Int32, request: RequestID, accepts: Bool, generation: UInt32)
    case reachesPickup(driver: Int32, request: RequestID, generation: UInt32)
    case reachesDestination(driver: Int32, request: RequestID)
    /// A driver who was not available (decline, disconnect, break, lost ride) turns available.
    case turnsAvailable(driver: Int32, generation: UInt32)
    /// An idle drifting taxi reaches a hotspot.
    case driftArrives(driver: Int32, generation: UInt32)
    case customerCancels(request: RequestID)
    /// A timer the dispatch core asked for.
    case coreTimer(TimerID)
    /// Hourly sampling of the fleet and the queues.
    case hourTick(hour: Int)
}
