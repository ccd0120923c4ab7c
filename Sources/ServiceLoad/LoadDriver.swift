import CitySim
import DispatchCore

/// One of the scenario's taxis acting through the API: starts its shifts at its start
/// place, polls `GET /v1/driver` for offers, answers after the scenario's response
/// time with its accept probability (or stays silent, `never_answer_share`), drives to
/// the pickup and to the destination in compressed time and reports both, turns
/// available again (after `rejoin_after_decline` when the core set it unavailable).
///
/// Invariant: one call in flight at a time; an offer is answered at most once; the
/// driver leaves its shift only when neither offered nor driving. Idle drift and breaks
/// of the simulator are not played.
struct LoadDriver {
    let index: Int
    let api: ServiceAPI
    let me: SignedIn
    let play: ScenarioPlay
    let timeline: ScenarioTimeline
    let book: RideBook
    let counters: PlayCounters
    /// Real seconds between two looks at `GET /v1/driver`.
    let poll: Double
    /// Simulated second at which shifts end (the scenario's horizon).
    let end: Double
    /// Simulated second after which the driver stops acting altogether (horizon + drain).
    let stopAt: Double

    func run() async {
        let random = play.behaviourStream(driver: index)
        var position = play.startPositions[index]
        var answered: Set<Int> = []
        for shift in play.roster[index].shifts where shift.start < end {
            await timeline.sleep(until: shift.start)
            let shiftEnd = min(shift.end, end)
            guard await retrying({ await api.call(.POST, "/v1/driver/shift", token: me.token,
                                                  body: WireShift(action: .start, position: point(position))) }) != nil
            else { return }
            _ = await retrying { await setAvailable() }
            counters.add("driver shifts started")
            while true {
                let state = await api.call(.GET, "/v1/driver", token: me.token, body: nil as String?).decode(WireDriver.self)
                let now = timeline.now
                if now >= stopAt { return }
                guard let state else {
                    try? await Task.sleep(for: .seconds(poll))
                    continue
                }
                position = Position(x: state.position.x, y: state.position.y)
                switch state.status {
                case .offered:
                    guard let ride = state.offer?.ride ?? state.ride, answered.insert(ride).inserted else { break }
                    if random.bernoulli(play.scenario.drivers.neverAnswerShare) {
                        counters.add("offers left unanswered")
                        break
                    }
                    await timeline.sleep(simulated: random.duration(play.scenario.drivers.responseTime))
                    let accepts = random.bernoulli(play.scenario.drivers.acceptProbability)
                    let answer = await api.call(.POST, "/v1/driver/offers/\(ride)/\(accepts ? "accept" : "decline")",
                                                route: "/v1/driver/offers/{id}/\(accepts ? "accept" : "decline")",
                                                token: me.token, body: nil as String?)
                    counters.add(answer.status == 200 ? (accepts ? "offers accepted" : "offers declined") : "offer answers refused")
                    if accepts, answer.status == 200 { position = await drive(ride, from: position, random) }
                    continue
                case .toPickup, .onRide:
                    if let ride = state.ride { position = await drive(ride, from: position, random, pickedUp: state.status == .onRide) }
                    continue
                case .unavailable:
                    if now < shiftEnd {
                        await timeline.sleep(simulated: min(random.duration(play.scenario.drivers.rejoinAfterDecline), 3600))
                        _ = await setAvailable()
                        continue
                    }
                case .offShift:
                    if now < shiftEnd {
                        _ = await api.call(.POST, "/v1/driver/shift", token: me.token,
                                           body: WireShift(action: .start, position: point(position)))
                        continue
                    }
                case .available:
                    break
                }
                if now >= shiftEnd, state.status != .offered {
                    if state.status != .offShift {
                        _ = await retrying { await api.call(.POST, "/v1/driver/shift", token: me.token,
                                                            body: WireShift(action: .end, position: nil)) }
                    }
                    break
                }
                try? await Task.sleep(for: .seconds(poll))
            }
        }
    }

    /// Drives to the pickup (not before a reservation's meeting time), reports it, drives to
    /// the destination, reports the drop-off and turns available. Returns where the taxi is.
    private func drive(_ ride: Int, from here: Position, _ random: RandomStream, pickedUp: Bool = false) async -> Position {
        guard let request = book.request(ride) else {
            counters.add("rides of unknown customers")  // its 201 never reached the client
            try? await Task.sleep(for: .seconds(poll))
            return here
        }
        let cv = play.scenario.drivers.travelTimeCV
        func noisy(_ t: Double) -> Double { cv > 0 ? t * random.lognormal(mean: 1, cv: cv) : t }
        if !pickedUp {
            let now = timeline.now
            let arrival = now + noisy(play.travelTime(from: here, to: request.origin, at: now))
            let pickupAt = max(arrival, request.meetingTime ?? arrival)
            guard pickupAt < stopAt else {
                counters.add("pickups after the run's end")  // a reservation beyond the played hours
                await timeline.sleep(until: stopAt)
                return here
            }
            await timeline.sleep(until: pickupAt)
            let pickup = await retrying { await api.call(.POST, "/v1/driver/rides/\(ride)/pickup",
                                                         route: "/v1/driver/rides/{id}/pickup", token: me.token,
                                                         body: nil as String?) }
            guard pickup?.status == 200 else {
                counters.add("pickups refused")  // D9: too late, the ride went to another taxi
                _ = await setAvailable()
                return request.origin
            }
        }
        let now = timeline.now
        await timeline.sleep(until: now + noisy(play.travelTime(from: request.origin, to: request.destination, at: now)))
        let dropoff = await retrying { await api.call(.POST, "/v1/driver/rides/\(ride)/dropoff",
                                                      route: "/v1/driver/rides/{id}/dropoff", token: me.token,
                                                      body: point(request.destination)) }
        counters.add(dropoff?.status == 200 ? "rides completed" : "drop-offs refused")
        if timeline.now < end { _ = await setAvailable() }
        return request.destination
    }

    private func setAvailable() async -> APIAnswer {
        await api.call(.PUT, "/v1/driver/availability", token: me.token, body: WireAvailability(available: true))
    }

    private func point(_ p: Position) -> WirePoint { WirePoint(x: p.x, y: p.y) }

    /// Repeats a call while the service does not answer at all (down or restarting), up to a minute.
    private func retrying(_ call: () async -> APIAnswer) async -> APIAnswer? {
        for _ in 0..<240 {
            let answer = await call()
            if answer.status != 0 { return answer }
            try? await Task.sleep(for: .milliseconds(250))
        }
        return nil
    }
}
