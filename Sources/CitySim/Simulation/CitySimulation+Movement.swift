import DispatchCore
import RoadNetwork

/// How often, in simulated seconds, a drifting taxi of a road city tells the core where it is on the road.
let driftReportInterval = 30.0

// MARK: - Movement along the roads (road cities)

extension CitySimulation {
    /// Starts driver `d`'s leg along the roads (a road city only; on the grid a drive is just its end event):
    /// from `origin` now to `destination` in `duration` seconds. It replaces the driver's previous leg: a
    /// driver has at most one leg in progress.
    func startLeg(_ d: Int32, _ purpose: RoadLeg.Purpose, from origin: Position, to destination: Position, duration: Double) {
        guard city.roads != nil else { return }
        legs[Int(d)] = RoadLeg(purpose, from: origin, to: destination, startedAt: events.now, duration: max(0, duration))
    }

    /// The driver's leg is over (reached, voided or cut short): nothing of it is kept.
    func endLeg(_ d: Int32) {
        guard city.roads != nil else { return }
        legs[Int(d)] = nil
    }

    /// Where driver `d` is now: on the road where its leg in progress puts it, else where the core has it.
    func position(of d: Int32) -> Position? {
        if let roads = city.roads, legs[Int(d)] != nil { return legs[Int(d)]!.position(at: events.now, on: roads) }
        return core.position(of: drivers[Int(d)].id)
    }

    /// An offer reached a drifting taxi: it stops where it is, and the core learns that on-road place
    /// (its ETA to the pickup, and D9's maximum allowed delay, then count from there). A place outside
    /// every zone is not reported: the core keeps the last one. On the grid the taxi stays where the core has it.
    func stopDrift(_ d: Int32) {
        guard let roads = city.roads, var leg = legs[Int(d)], leg.purpose == .drift else { return }
        legs[Int(d)] = nil
        let place = leg.position(at: events.now, on: roads)
        guard city.geometry.contains(place) else { return }
        drivers[Int(d)].offeredFrom.zone = Int32(zoneIndex(of: place))  // the core restores a withdrawn offer's taxi there (D2)
        mustCommand(.updatePosition(drivers[Int(d)].id, place))
    }

    /// D9 took the ride away from a taxi on its way to the pickup. In a road city the driver stops where the
    /// route has taken them at this instant (on the road, not at the pickup) and turns available there at
    /// once, reporting that place to the core; if the road there is outside every zone, they drive on along
    /// the route to its first point inside one. On the grid (no position between the ends of a drive) the
    /// driver finishes the drive and turns available at the pickup, as before.
    func revoked(_ d: Int32, pickup: Position) {
        drivers[Int(d)].generation &+= 1
        let event = SimEvent.turnsAvailable(driver: d, generation: drivers[Int(d)].generation)
        guard let roads = city.roads, var leg = legs[Int(d)] else {
            drivers[Int(d)].pendingPosition = pickup
            return schedule(event, at: max(events.now, drivers[Int(d)].expectedArrival))
        }
        legs[Int(d)] = nil
        let stop = leg.firstPlace(from: events.now, on: roads, inside: city.geometry.contains)
        drivers[Int(d)].pendingPosition = stop.place
        schedule(event, at: stop.time)
    }

    // MARK: Idle drift

    /// Starts an idle taxi's drift to `spot` taking `duration` seconds. On the grid the taxi reaches `spot` at
    /// the end (one event); in a road city it follows the fastest route (a `RoadLeg` at half speed), telling
    /// the core its position on the road every `driftReportInterval` seconds, so the core's choice of taxi
    /// sees a drifting taxi at most that long ago (an offer then stops it and reports where it is exactly).
    func startDrift(_ d: Int32, from here: Position, to spot: Position, duration: Double) {
        drivers[Int(d)].pendingPosition = spot
        let event = SimEvent.driftArrives(driver: d, generation: drivers[Int(d)].generation)
        guard city.roads != nil, duration > 0 else {
            schedule(event, at: events.now + duration)
            return
        }
        startLeg(d, .drift, from: here, to: spot, duration: duration)
        schedule(event, at: min(events.now + driftReportInterval, events.now + duration))
    }

    /// A drift event: before a road drift's end the taxi reports where it is on the road and drives on;
    /// otherwise it has reached its target. Either way D2: a queued taxi that reaches another zone joins
    /// the tail of that zone's queue.
    func driftStep(_ d: Int32) {
        guard let target = drivers[Int(d)].pendingPosition else { return }
        let place: Position
        if let roads = city.roads, var leg = legs[Int(d)], events.now < leg.endsAt {
            schedule(.driftArrives(driver: d, generation: drivers[Int(d)].generation),
                     at: min(events.now + driftReportInterval, leg.endsAt))
            place = leg.position(at: events.now, on: roads)
            legs[Int(d)] = leg  // keeps the route, now computed
            // A road between two zones' edges may leave every zone (hexagons' ragged border): no report there.
            guard city.geometry.contains(place) else { return }
        } else {
            drivers[Int(d)].pendingPosition = nil
            endLeg(d)
            place = target
        }
        // D2 (noted before the command).
        if let zone = drivers[Int(d)].queuePlace.queuedZone, zoneIndex(of: place) != zone { recordJoinsTail(d, zone: zoneIndex(of: place)) }
        command(.updatePosition(drivers[Int(d)].id, place))
    }
}
