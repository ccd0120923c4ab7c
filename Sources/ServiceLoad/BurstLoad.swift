import CitySim
import Foundation

/// Throughput mode (`citysim load --mode burst`): `customers.count` closed-loop
/// clients, each a signed-in customer, request rides back to back (origins and
/// destinations from the scenario's demand) for `duration` seconds, with an optional
/// share of D14 queue queries in between.
///
/// Invariant: each client has at most one call in flight; every 201 is noted in
/// `acknowledged`; the recorder is reset after `warmup` so only the steady phase is reported.
public struct BurstLoad: Sendable {
    public var api: ServiceAPI
    public var customers: [SignedIn]
    public var places: [(origin: WirePoint, destination: WirePoint)]
    public var duration: Double
    public var warmup: Double
    /// Share of iterations that also ask `GET /v1/queue` (0…1).
    public var queryShare: Double
    public var acknowledged: AcknowledgedRides

    public init(api: ServiceAPI, customers: [SignedIn], play: ScenarioPlay, duration: Double, warmup: Double,
                queryShare: Double, acknowledged: AcknowledgedRides) {
        self.api = api
        self.customers = customers
        var places: [(origin: WirePoint, destination: WirePoint)] = play.requests.map {
            (WirePoint(x: $0.origin.x, y: $0.origin.y), WirePoint(x: $0.destination.x, y: $0.destination.y))
        }
        if places.isEmpty {
            places = [(WirePoint(x: play.cityWidth / 4, y: play.cityHeight / 4),
                       WirePoint(x: play.cityWidth * 3 / 4, y: play.cityHeight * 3 / 4))]
        }
        self.places = places
        self.duration = duration
        self.warmup = warmup
        self.queryShare = queryShare
        self.acknowledged = acknowledged
    }

    /// Runs the clients; returns the measured (post-warm-up) wall-clock seconds.
    public func run() async -> Double {
        let start = ContinuousClock.now
        let measuredFrom = start + .seconds(warmup)
        let end = measuredFrom + .seconds(duration)
        await withTaskGroup(of: Void.self) { group in
            for (index, customer) in customers.enumerated() {
                group.addTask { await client(index, customer, until: end) }
            }
            group.addTask {
                try? await Task.sleep(until: measuredFrom, clock: .continuous)
                api.recorder.reset()
            }
        }
        let elapsed = ContinuousClock.now - measuredFrom
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    private func client(_ index: Int, _ customer: SignedIn, until end: ContinuousClock.Instant) async {
        var k = index * 7919
        var queries = 0.0
        while ContinuousClock.now < end {
            let place = places[k % places.count]
            k += 1
            let answer = await api.call(.POST, "/v1/rides", token: customer.token,
                                        body: WireRideRequest(origin: place.origin, destination: place.destination, patienceS: 0))
            if answer.status == 201, let ride = answer.decode(WireRide.self) {
                acknowledged.note(ride.id, ride.status)
            } else if answer.status == 0 {
                try? await Task.sleep(for: .milliseconds(100))  // server down: do not spin
            }
            queries += queryShare
            if queries >= 1 {
                queries -= 1
                _ = await api.call(.GET, "/v1/queue?x=\(Int(place.origin.x))&y=\(Int(place.origin.y))",
                                   route: "/v1/queue", body: nil as String?)
            }
        }
    }
}
