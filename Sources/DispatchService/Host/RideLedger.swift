import DispatchCore

/// What the host remembers about requests and offers beyond the core's own
/// queries: who asked, from where to where, the taxi code and ETA told, the
/// fare charged, and each driver's open offer. Rebuilt by replaying the log,
/// since it is a function of the commands and their effects.
///
/// Invariant: `ended[endedHead...]` lists every ride held that has ended, in the order (and
/// core time) it ended; `forget` takes a ride out of `rides` and `ridesOfCustomer` (archiving).
struct RideLedger: Equatable, Codable {
    struct Ride: Sendable, Equatable, Codable {
        let id: RequestID
        let customer: CustomerID
        let origin: Position
        let destination: Position
        let requestedAt: Double
        /// D11: the meeting time of a reservation.
        let meetingTime: Double?
        var taxiCode: String?
        /// D8, D9: the ETA told to the customer (seconds) and when it was told.
        var etaSeconds: Double?
        var notifiedAt: Double?
        var fareCharged = 0.0
        /// The driver who completed the ride.
        var servedBy: DriverID?
        /// When the customer was picked up and when the ride was completed (core time).
        var pickedUpAt: Double?
        var completedAt: Double?
    }

    struct Offer: Sendable, Equatable, Codable {
        let request: RequestID
        let expiresAt: Double
    }

    private(set) var rides: [RequestID: Ride] = [:]
    private(set) var ridesOfCustomer: [CustomerID: [RequestID]] = [:]
    private(set) var offers: [DriverID: Offer] = [:]
    /// Drivers in the order they were added.
    private(set) var drivers: [DriverID] = []
    /// The largest request id seen.
    private(set) var largestRequestID = 0
    /// A ride that ended and the core time it ended.
    struct Ended: Sendable, Equatable, Codable {
        let at: Double
        let id: RequestID
    }

    /// Rides that ended, oldest first, with the core time they ended (entries before `endedHead` are gone).
    private(set) var ended: [Ended] = []
    private(set) var endedHead = 0

    /// Notes what an accepted command and its effects changed; `taxiCode` names a driver's taxi (the core's).
    mutating func record(_ command: Command, at time: Double, effects: [Effect], taxiCode: (DriverID) -> String?) {
        switch command {
        case .addDriver(let driver, _): drivers.append(driver)
        case .requestRide(let id, let customer, let origin, let destination, _):
            add(Ride(id: id, customer: customer, origin: origin, destination: destination, requestedAt: time, meetingTime: nil))
        case .reserveRide(let id, let customer, let origin, let destination, let meeting):
            add(Ride(id: id, customer: customer, origin: origin, destination: destination, requestedAt: time,
                     meetingTime: meeting))
        case .accept(let driver, _), .decline(let driver, _): offers[driver] = nil
        case .pickedUp(_, let request): rides[request]?.pickedUpAt = time
        default: break
        }
        for effect in effects {
            switch effect {
            case .offer(let driver, let request, let expiry): offers[driver] = Offer(request: request, expiresAt: expiry)
            case .offerWithdrawn(let driver, let request), .assignmentRevoked(let driver, let request):
                if offers[driver]?.request == request { offers[driver] = nil }
            case .customerNotified(let request, _, let driver, let eta), .reassigned(let request, _, let driver, let eta):
                rides[request]?.taxiCode = taxiCode(driver)
                rides[request]?.etaSeconds = eta
                rides[request]?.notifiedAt = time
            case .fareCharged(let request, _, let amount): rides[request]?.fareCharged += amount
            case .rideCompleted(let request, let driver):
                rides[request]?.servedBy = driver
                rides[request]?.completedAt = time
                ended.append(Ended(at: time, id: request))
            case .noTaxiAvailable(let request, _), .requestExpired(let request, _), .requestCancelled(let request):
                ended.append(Ended(at: time, id: request))
            default: break
            }
        }
    }

    private mutating func add(_ ride: Ride) {
        rides[ride.id] = ride
        ridesOfCustomer[ride.customer, default: []].append(ride.id)
        largestRequestID = max(largestRequestID, ride.id.rawValue)
    }

    /// The first (at most `limit`) rides on the `ended` list that ended by `time`, oldest first, with their end.
    func ended(through time: Double, limit: Int) -> [Ended] {
        var due: [Ended] = []
        var at = endedHead
        while at < ended.count, due.count < limit, ended[at].at <= time {
            due.append(ended[at])
            at += 1
        }
        return due
    }

    /// When the ride that ended first among those still on the `ended` list ended; nil when none is.
    var oldestEnd: Double? { endedHead < ended.count ? ended[endedHead].at : nil }

    /// Takes the first `count` rides off the `ended` list.
    mutating func dropEnded(_ count: Int) {
        endedHead = min(endedHead + count, ended.count)
        if endedHead > 1024, endedHead * 2 > ended.count {
            ended.removeFirst(endedHead)
            endedHead = 0
        }
    }

    /// Forgets an archived ride (its offers are long gone: it ended).
    mutating func forget(_ id: RequestID) {
        guard let ride = rides.removeValue(forKey: id) else { return }
        if var list = ridesOfCustomer[ride.customer], let at = list.firstIndex(of: id) {
            list.remove(at: at)
            ridesOfCustomer[ride.customer] = list.isEmpty ? nil : list
        }
    }

    /// The customer of a request, if known.
    func customer(of request: RequestID) -> CustomerID? { rides[request]?.customer }
}
