import CitySim
import Foundation

/// Scenario mode (`citysim load SCENARIO.yaml`): the scenario's customers and drivers act
/// through the API against the wall clock compressed by `timeline.speed`. Customers
/// request (`POST /v1/rides`) or reserve (`POST /v1/reservations`) at their arrival
/// times, follow their ride by polling `GET /v1/rides/{id}` and cancel per the
/// scenario's cancellation model; each roster taxi is a `LoadDriver`.
///
/// Invariant: every 201 is noted in `acknowledged` (with the latest status seen) and in
/// the ride book before anyone acts on it; a customer holds at most one open immediate
/// ride (D12), so customers come from a pool; the run stops by itself at `play.horizon`
/// plus `drain` simulated seconds.
public struct ScenarioLoad: Sendable {
    public var api: ServiceAPI
    public var play: ScenarioPlay
    public var timeline: ScenarioTimeline
    public var customers: [SignedIn]
    public var drivers: [SignedIn]
    public var acknowledged: AcknowledgedRides
    /// Real seconds between two looks at a ride (customers) and at `GET /v1/driver` (drivers).
    public var customerPoll: Double
    public var driverPoll: Double
    /// Simulated seconds after the horizon for rides in progress to finish.
    public var drain: Double

    public init(api: ServiceAPI, play: ScenarioPlay, timeline: ScenarioTimeline, customers: [SignedIn],
                drivers: [SignedIn], acknowledged: AcknowledgedRides, customerPoll: Double = 1,
                driverPoll: Double = 0.25, drain: Double = 1800) {
        self.api = api
        self.play = play
        self.timeline = timeline
        self.customers = customers
        self.drivers = drivers
        self.acknowledged = acknowledged
        self.customerPoll = customerPoll
        self.driverPoll = driverPoll
        self.drain = drain
    }

    /// Plays the scenario; returns counts of what customers and drivers did.
    public func run() async -> [String: Int] {
        let book = RideBook(), counters = PlayCounters(), pool = CustomerPool(customers)
        let end = play.horizon + drain
        await withTaskGroup(of: Void.self) { group in
            for index in drivers.indices {
                let driver = LoadDriver(index: index, api: api, me: drivers[index], play: play, timeline: timeline,
                                        book: book, counters: counters, poll: driverPoll, end: play.horizon,
                                        stopAt: end)
                group.addTask { await driver.run() }
            }
            for request in play.requests {
                await timeline.sleep(until: request.time)
                group.addTask { await customer(request, pool: pool, book: book, counters: counters, end: end) }
            }
        }
        return counters.snapshot
    }

    private func customer(_ request: PlannedRequest, pool: CustomerPool, book: RideBook, counters: PlayCounters,
                          end: Double) async {
        guard let index = pool.take(preferring: request.customer) else {
            counters.add("requests skipped: every pool customer busy")
            return
        }
        let token = customers[index].token
        let answer: APIAnswer
        if let meeting = request.meetingTime {
            answer = await api.call(.POST, "/v1/reservations", token: token, body: WireReservationRequest(
                destination: point(request.destination.x, request.destination.y),
                meetingTime: Date(timeIntervalSince1970: timeline.serviceTime(of: meeting)), origin: point(request.origin.x, request.origin.y)))
        } else {
            answer = await api.call(.POST, "/v1/rides", token: token, body: WireRideRequest(
                destination: point(request.destination.x, request.destination.y), origin: point(request.origin.x, request.origin.y),
                patienceS: request.patience.isFinite ? request.patience : 86_400))
        }
        guard answer.status == 201, let ride = answer.decode(WireRide.self) else {
            counters.add(answer.status == 201 ? "answers outside the OpenAPI document (201 without a Ride)"
                                              : "requests refused, status \(answer.status)")
            pool.release(index)
            return
        }
        book.add(ride.id, request)
        acknowledged.note(ride.id, ride.status.rawValue)
        counters.add(request.meetingTime == nil ? "rides acknowledged" : "reservations acknowledged")
        if request.meetingTime != nil { pool.release(index) }  // D12 is about immediate requests only
        defer { if request.meetingTime == nil { pool.release(index) } }

        var status = ride.status.rawValue
        var cancelTried = false
        let pollFactor = request.meetingTime == nil ? 1.0 : 10.0  // reservations change rarely
        while !EndStateCheck.finished.contains(status), timeline.now < end {
            if let cancelAt = request.cancelAt, !cancelTried, timeline.now >= cancelAt {
                cancelTried = true
                let cancel = await api.call(.DELETE, "/v1/rides/\(ride.id)", route: "/v1/rides/{id}", token: token,
                                            body: nil as String?)
                if cancel.status == 200, let body = cancel.decode(WireRide.self) {
                    status = body.status.rawValue
                    acknowledged.note(ride.id, status)
                    counters.add("cancellations accepted")
                    continue
                }
                counters.add("cancellations refused, status \(cancel.status)")  // 409 once a driver accepted (D10)
            }
            var wait = customerPoll * pollFactor
            if let cancelAt = request.cancelAt, !cancelTried {
                wait = min(wait, max(0.01, (cancelAt - timeline.now) / timeline.speed))
            }
            try? await Task.sleep(for: .seconds(wait))
            let look = await api.call(.GET, "/v1/rides/\(ride.id)", route: "/v1/rides/{id}", token: token, body: nil as String?)
            if look.status == 200, let body = look.decode(WireRide.self) {
                status = body.status.rawValue
                acknowledged.note(ride.id, status)
            }
        }
        counters.add("rides ended \(status)")
    }

    private func point(_ x: Double, _ y: Double) -> WirePoint { WirePoint(x: x, y: y) }
}
