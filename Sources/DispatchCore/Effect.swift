/// What the core tells the host to do or to pass on after a command.
///
/// Invariant: plain data (no strings or references), so a host's buffer of effects is copied and
/// emptied without retains, releases or per-element destruction; a driver's taxi code is
/// `DispatchCore.taxiCode(of:)`.
public enum Effect: Sendable, Equatable {
    /// D3: show the offer to the driver; it lapses at `expiresAt` (D4).
    case offer(DriverID, RequestID, expiresAt: Double)
    /// The offer was taken back (customer cancelled or left).
    case offerWithdrawn(DriverID, RequestID)
    /// D8: tell the customer the taxi code (`DispatchCore.taxiCode(of: driver)`) and the ETA in seconds.
    case customerNotified(RequestID, CustomerID, DriverID, eta: Double)
    /// D9: a new taxi replaces the late one; tell the customer the new code and ETA.
    case reassigned(RequestID, CustomerID, DriverID, eta: Double)
    /// D9: the late driver loses the ride.
    case assignmentRevoked(DriverID, RequestID)
    /// D7: no taxi is available; the request ended as rejected.
    case noTaxiAvailable(RequestID, CustomerID)
    /// D7: no taxi now; the customer waits until `until` at the latest.
    case waitingForTaxi(RequestID, until: Double)
    /// D11: the reservation is confirmed; a taxi is allocated at `allocationAt`.
    case reservationConfirmed(RequestID, allocationAt: Double)
    /// The customer's patience ran out before a driver accepted.
    case requestExpired(RequestID, CustomerID)
    case requestCancelled(RequestID)
    /// D13: the fare (or part of it) charged to the customer, paid to the driver.
    case fareCharged(RequestID, DriverID, amount: Double)
    case rideCompleted(RequestID, DriverID)
    /// Ask the host to send `.timerFired(timer)` at `time`.
    case wake(at: Double, TimerID)
    /// D13: the reported party's bad-evaluation counter is now `count`.
    case reportRecorded(RequestID, count: Int)
    /// D14: answer to `queueStatus`.
    case queueStatus(ZoneID, length: Int)
    /// D14: answer to `estimateArrival`; nil ETA when no taxi is available.
    case arrivalEstimate(DriverID?, eta: Double?)
}
