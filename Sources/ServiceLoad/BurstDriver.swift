import Foundation

/// One taxi of a burst run (`citysim load --mode burst --drivers N`): starts a shift at `home`,
/// turns available, and until `end` looks at `GET /v1/driver` every `poll` seconds; an offer it
/// accepts at once, reports the pickup and the drop-off (at `home`) straight away and turns
/// available again, so the rides it takes end `completed` within a few calls.
///
/// Invariant: one call in flight at a time; every ride it completes is counted once in
/// `counters` ("rides completed"); it never leaves a ride it accepted unfinished while the
/// service answers.
struct BurstDriver {
    let api: ServiceAPI
    let me: SignedIn
    let home: WirePoint
    let poll: Double
    let counters: PlayCounters

    func run(until end: ContinuousClock.Instant) async {
        _ = await api.call(.POST, "/v1/driver/shift", token: me.token, body: WireShift(action: .start, position: home))
        _ = await setAvailable()
        while ContinuousClock.now < end {
            guard let state = await api.call(.GET, "/v1/driver", token: me.token, body: nil as String?)
                .decode(WireDriver.self) else {
                try? await Task.sleep(for: .seconds(poll))
                continue
            }
            switch state.status {
            case .offered:
                guard let ride = state.offer?.ride ?? state.ride else { break }
                let answer = await api.call(.POST, "/v1/driver/offers/\(ride)/accept",
                                            route: "/v1/driver/offers/{id}/accept", token: me.token, body: nil as String?)
                if answer.status == 200 { await finish(ride, pickedUp: false) }
                continue
            case .toPickup, .onRide:
                if let ride = state.ride { await finish(ride, pickedUp: state.status == .onRide) }
                continue
            case .unavailable:
                _ = await setAvailable()
                continue
            case .offShift, .available:
                break
            }
            try? await Task.sleep(for: .seconds(poll))
        }
    }

    /// Reports the pickup (unless done) and the drop-off, then turns available.
    private func finish(_ ride: Int, pickedUp: Bool) async {
        if !pickedUp {
            let pickup = await api.call(.POST, "/v1/driver/rides/\(ride)/pickup", route: "/v1/driver/rides/{id}/pickup",
                                        token: me.token, body: nil as String?)
            guard pickup.status == 200 else { return }
        }
        let dropoff = await api.call(.POST, "/v1/driver/rides/\(ride)/dropoff", route: "/v1/driver/rides/{id}/dropoff",
                                     token: me.token, body: home)
        if dropoff.status == 200 { counters.add("rides completed") }
        _ = await setAvailable()
    }

    private func setAvailable() async -> APIAnswer {
        await api.call(.PUT, "/v1/driver/availability", token: me.token, body: WireAvailability(available: true))
    }
}
