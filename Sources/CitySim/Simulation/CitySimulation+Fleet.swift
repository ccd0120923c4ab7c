import DispatchCore

// MARK: - Shifts, availability, breaks, idle drift

extension CitySimulation {
    /// Adds every driver of the roster and schedules all their shift starts and ends, which are
    /// known up front, as one timeline beside the event heap (a day of a big city's shifts would
    /// otherwise make most of the heap).
    func setUpFleet() throws {
        let roster = scenario.roster(horizon: horizon)
        drivers.reserveCapacity(roster.count)
        var shiftEvents: [(payload: SimEvent, time: Double, priority: Int)] = []
        for (index, entry) in roster.enumerated() {
            let driver = DriverID(index)
            drivers.append(SimDriver(id: driver, shift: entry.shift, shifts: entry.shifts.map { ($0.start, $0.end) }))
            queueOrder.addTaxi()
            if city.roads != nil { legs.append(nil) }
            mustCommand(.addDriver(driver, taxiCode: entry.taxiCode))
            for interval in entry.shifts {
                shiftEvents.append((.shiftStarts(driver: Int32(index)), interval.start, 0))
                shiftEvents.append((.shiftEnds(driver: Int32(index)), interval.end, 0))
            }
        }
        let stints = QueueStints(drivers: drivers.map { ($0.shift, $0.shifts) }, window: (warmup, horizon))
        // Handed over whole (not copied), so the helper's first note does not copy every per-taxi array.
        if usesHelperThreads {
            queueRecordsAside = QueueRecordsAside(stints, queueOrder, notes: &queueNotes)
            queueOrder = QueueOrderCheck(zones: 0)  // the helper's copy is the only one
        } else {
            queueStints = stints
        }
        do { try events.scheduleTimeline(shiftEvents.filter { $0.time < horizon }.map { ($0.payload, max($0.time, events.now), $0.priority) }) } catch {
            preconditionFailure("the roster has an invalid shift time: \(error)")
        }
    }

    func shiftStarts(_ d: Int32) {
        guard !drivers[Int(d)].onShift else {  // the previous shift is still being finished
            drivers[Int(d)].leaving = false
            return
        }
        let position = city.drawStart(fleetRandom, nearHotspots: scenario.fleet.startPositions == .hotspots)
        mustCommand(.startShift(drivers[Int(d)].id, at: position))
        drivers[Int(d)].onShift = true
        drivers[Int(d)].leaving = false
        drivers[Int(d)].shiftStartedAt = events.now
        drivers[Int(d)].shiftsStarted += 1
        if let breaks = scenario.drivers.breaks { drivers[Int(d)].nextBreakAt = events.now + breaks.everyHours * 3600 }
        becomeAvailable(d)
    }

    func shiftEnds(_ d: Int32) {
        guard drivers[Int(d)].onShift else { return }
        drivers[Int(d)].leaving = true
        settle(d)
    }

    /// After anything happened to a driver: one who is leaving goes off shift
    /// as soon as no offer or ride holds them; one left not available by the
    /// core (D4 disconnect, D5 decline) comes back after a while.
    func settle(_ d: Int32) {
        let id = drivers[Int(d)].id
        guard let status = core.status(of: id) else { return }
        switch status {
        case .available, .unavailable:
            if drivers[Int(d)].leaving {
                noteLeftQueue(d, byOffer: false)
                recordLeavesQueue(d, dispatched: false)
                mustCommand(.endShift(id))
                drivers[Int(d)].generation &+= 1
                drivers[Int(d)].pendingPosition = nil  // a drift or a move in progress ends with the shift
                endLeg(d)
                drivers[Int(d)].onShift = false
                drivers[Int(d)].leaving = false
                drivers[Int(d)].shiftSeconds += inWindow(from: drivers[Int(d)].shiftStartedAt, to: events.now)
            } else if status == .unavailable {
                drivers[Int(d)].generation &+= 1
                let delay = behaviourRandom.duration(scenario.drivers.rejoinAfterDecline)
                if delay.isFinite {
                    schedule(.turnsAvailable(driver: d, generation: drivers[Int(d)].generation), at: events.now + delay)
                }
            } else if drivers[Int(d)].availableSince == nil {
                drivers[Int(d)].availableSince = events.now
            }
        default:
            break
        }
    }

    /// After a drop-off: go home, take a break, or join the queue again.
    func becomeFree(_ d: Int32) {
        if drivers[Int(d)].leaving { settle(d); return }
        if let breaks = scenario.drivers.breaks, events.now >= drivers[Int(d)].nextBreakAt {
            drivers[Int(d)].nextBreakAt = events.now + breaks.minutes * 60 + breaks.everyHours * 3600
            drivers[Int(d)].generation &+= 1
            schedule(.turnsAvailable(driver: d, generation: drivers[Int(d)].generation), at: events.now + breaks.minutes * 60)
            return
        }
        becomeAvailable(d)
    }

    func turnAvailable(_ d: Int32) {
        if let position = drivers[Int(d)].pendingPosition {
            drivers[Int(d)].pendingPosition = nil
            mustCommand(.updatePosition(drivers[Int(d)].id, position))
        }
        guard core.status(of: drivers[Int(d)].id) == .unavailable else { return }
        if drivers[Int(d)].leaving { settle(d); return }
        becomeAvailable(d)
    }

    /// D2: the driver turns available and joins the tail of the zone queue.
    func becomeAvailable(_ d: Int32) {
        drivers[Int(d)].availableSince = events.now
        // Noted before the command: the core may hand the taxi an offer within it. A taxi already
        // available keeps its place (D2).
        if core.status(of: drivers[Int(d)].id) == .unavailable, let here = core.position(of: drivers[Int(d)].id) {
            recordJoinsTail(d, zone: zoneIndex(of: here))
        }
        mustCommand(.setAvailable(drivers[Int(d)].id, true))
        guard scenario.drivers.idle == .drift, case .available = core.status(of: drivers[Int(d)].id),
              let here = core.position(of: drivers[Int(d)].id), let spot = city.nearestHotspot(to: here),
              spot.euclideanDistance(to: here) > 200 else { return }
        // Cruise slowly (half speed) toward the nearest hotspot; an offer on the way voids the move.
        startDrift(d, from: here, to: spot, duration: 2 * city.travel.travelTime(from: here, to: spot, departingAt: events.now))
    }

    /// The zone index of a position in the city.
    func zoneIndex(of position: Position) -> Int { city.zoneIndex(of: position) }

    /// The part of [from, to) inside the measurement window [warm-up, horizon), seconds.
    func inWindow(from start: Double, to end: Double) -> Double {
        max(0, min(end, horizon) - max(start, warmup))
    }

    /// The taxi stopped waiting in a queue: count the drivers' side of waiting. A wait counts in the
    /// mean when it began in the window and ended with an offer; ended otherwise it is censored.
    func noteLeftQueue(_ d: Int32, byOffer: Bool) {
        guard let since = drivers[Int(d)].availableSince else { return }
        drivers[Int(d)].queueSeconds += inWindow(from: since, to: events.now)
        if since >= warmup {
            if byOffer {
                drivers[Int(d)].queueWaitSeconds += events.now - since
                drivers[Int(d)].queueWaits += 1
            } else {
                drivers[Int(d)].censoredQueueWaits += 1
            }
        }
        drivers[Int(d)].availableSince = nil
    }

    func finishBusy(_ d: Int32) {
        guard let since = drivers[Int(d)].busySince else { return }
        drivers[Int(d)].busySeconds += inWindow(from: since, to: events.now)
        drivers[Int(d)].busySince = nil
    }

    func sampleHour() {
        var sample = HourSample()
        sample.taxisOnShift = drivers.count { $0.onShift }
        sample.taxisAvailable = core.availableTaxiCount
        sample.queueLengthByZone = (0..<city.geometry.zoneCount).map { Int32(core.queue(of: ZoneID($0)).count) }
        hourly.append(sample)
    }

    /// Closes the books at the horizon: shift, busy and queue time of drivers still out (clipped
    /// to the window); waits still open are censored.
    func closeBooks() {
        if let queueRecordsAside {
            (queueStints, queueOrder) = queueRecordsAside.finish(&queueNotes)
            self.queueRecordsAside = nil
        }
        for d in drivers.indices {
            if drivers[d].onShift { drivers[d].shiftSeconds += inWindow(from: drivers[d].shiftStartedAt, to: horizon) }
            if let since = drivers[d].busySince { drivers[d].busySeconds += inWindow(from: since, to: horizon) }
            if let since = drivers[d].availableSince, drivers[d].onShift {
                drivers[d].queueSeconds += inWindow(from: since, to: horizon)
                if since >= warmup { drivers[d].censoredQueueWaits += 1 }
            }
        }
    }
}
