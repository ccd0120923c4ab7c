import CitySim
import Foundation
import NIOCore
import NIOPosix

/// Throughput mode (`citysim load --mode burst`): `customers.count` clients, each a
/// signed-in customer, request rides (origins and destinations from the scenario's
/// demand) for `duration` seconds, with an optional share of D14 queue queries in
/// between: back to back (closed loop), or paced so that all together send `rate`
/// ride requests per second (each client on its own fixed schedule). With `drivers`, taxis
/// take the offers and complete those rides at once (`BurstDriver`).
///
/// Invariant: each client has at most one call in flight; every 201 is noted in
/// `acknowledged`; the recorder is reset after `warmup` so only the steady phase is
/// reported; a paced client that falls behind its schedule sends at once and counts
/// the late start in `lateStarts` (latency is timed from the actual send).
public struct BurstLoad: Sendable {
    public var api: ServiceAPI
    public var customers: [SignedIn]
    public var places: [(origin: WirePoint, destination: WirePoint)]
    public var duration: Double
    public var warmup: Double
    /// Share of iterations that also ask `GET /v1/queue` (0…1).
    public var queryShare: Double
    public var acknowledged: AcknowledgedRides
    /// Ride requests per second of all clients together; nil for back to back.
    public var rate: Double?
    /// Paced sends that started more than 10 ms after their scheduled time.
    public let lateStarts = PlayCounters()
    /// Answers with a success status whose body is not the OpenAPI document's (`WireRide` did not decode).
    public let offDocument = PlayCounters()
    /// Taxis that take offers and complete the rides at once (`BurstDriver`); none by default,
    /// so every ride is answered `rejected` (D7).
    public var drivers: [SignedIn] = []
    /// Real seconds between a taxi's looks at `GET /v1/driver`.
    public var driverPoll = 0.05
    /// What the taxis did ("rides completed").
    public let driverCounters = PlayCounters()
    let home: WirePoint

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
        home = WirePoint(x: play.cityWidth / 2, y: play.cityHeight / 2)
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
        let plan = BurstClient.Plan(url: api.baseURL, places: places, interval: rate.map { Double(customers.count) / $0 },
                                    clients: customers.count, queryShare: queryShare,
                                    measuredFrom: .now() + .nanoseconds(Int64(warmup * 1e9)),
                                    end: .now() + .nanoseconds(Int64((warmup + duration) * 1e9)),
                                    acknowledged: acknowledged, lateStarts: lateStarts, offDocument: offDocument)
        await withTaskGroup(of: Void.self) { group in
            if let plan {
                let recorder = api.recorder
                group.addTask { await Self.runClients(plan, customers, recorder: recorder) }
            } else {
                for (index, customer) in customers.enumerated() {
                    group.addTask { await client(index, customer, until: end) }
                }
            }
            for driver in drivers {
                let taxi = BurstDriver(api: api, me: driver, home: home, poll: driverPoll, counters: driverCounters)
                group.addTask { await taxi.run(until: end) }
            }
            group.addTask {
                try? await Task.sleep(until: measuredFrom, clock: .continuous)
                api.recorder.reset()
            }
        }
        let elapsed = ContinuousClock.now - measuredFrom
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The customers as `BurstClient`s, spread over the event loops of NIO's shared group; their tallies
    /// go into `recorder` once every client has ended.
    static func runClients(_ plan: BurstClient.Plan, _ customers: [SignedIn], recorder: LatencyRecorder) async {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        let tallies = loops.map { _ in BurstClient.Tally() }
        let clients = customers.enumerated().map { index, customer in
            BurstClient(plan: plan, index: index, token: customer.token, loop: loops[index % loops.count],
                        tally: tallies[index % loops.count])
        }
        let runs = clients.map { $0.run() }
        for run in runs { try? await run.get() }
        for (loop, tally) in zip(loops, tallies) {
            // Read on the loop that wrote it.
            let (rides, queries, queryCalls) = (try? await loop.submit { (tally.rides, tally.queries, tally.queryCalls) }.get())
                ?? (EndpointStats(), EndpointStats(), 0)
            recorder.merge("POST /v1/rides", rides)
            if queryCalls > 0 { recorder.merge("GET /v1/queue", queries) }
        }
    }

    /// A customer through `ServiceAPI` (HTTPS, or a base URL with a path, which `BurstClient` does not serve).
    private func client(_ index: Int, _ customer: SignedIn, until end: ContinuousClock.Instant) async {
        var k = index * 7919
        var queries = 0.0
        let interval = rate.map { Double(customers.count) / $0 }
        // Spread the clients' schedules evenly over one interval.
        var next = ContinuousClock.now + .seconds((interval ?? 0) * Double(index) / Double(customers.count))
        while ContinuousClock.now < end {
            if let interval {
                if ContinuousClock.now - next > .milliseconds(10) { lateStarts.add("late") }
                try? await Task.sleep(until: next, clock: .continuous)
                next += .seconds(interval)
            }
            let place = places[k % places.count]
            k += 1
            let answer = await api.call(.POST, "/v1/rides", token: customer.token,
                                        body: WireRideRequest(destination: place.destination, origin: place.origin, patienceS: 0))
            if answer.status == 201, let ride = answer.decode(WireRide.self) {
                acknowledged.note(ride.id, ride.status.rawValue)
            } else if answer.status == 201 {
                offDocument.add("POST /v1/rides")
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
