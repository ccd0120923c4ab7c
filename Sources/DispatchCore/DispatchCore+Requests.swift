// MARK: - Requests and rides: D3, D7–D13

extension DispatchCore {
    @usableFromInline func requestRide(_ id: RequestID, customer: CustomerID, origin: Position, destination: Position,
                     patience: Double, effects: inout [Effect]) throws(DispatchError) {
        guard knownSlot(of: id) == nil else { throw .duplicateRequest(id) }
        let zone = try city.zone(of: origin, alsoContaining: destination)
        guard patience >= 0 else { throw .invalidPatience(patience) }  // also rejects NaN
        if let open = openRequestOfCustomer[customer] {  // D12
            throw .customerHasOpenRequest(customer, open: open)
        }
        // D7: a customer who will not wait, with no taxi available at all, is told "no taxi" at once. A policy
        // chooses only among available taxis, so `dispatch` would come to the same end; the request ends
        // here without a record made and dropped (three in four requests of a saturated city end so).
        if patience == 0, index.count == 0 {
            directory.add(id, at: keepEnded(customer: customer, servedBy: -1, status: .rejected))
            effects.append(.noTaxiAvailable(id, customer))
            return
        }
        let slot = addRequest(RequestRecord(
            id: id, customer: customer, origin: origin, destination: destination, originZone: zone,
            requestedAt: now, meetingTime: nil, status: .pending, patienceDeadline: now + patience))
        openRequestOfCustomer[customer] = id
        if patience > 0, patience.isFinite {
            effects.append(.wake(at: now + patience, TimerID(kind: .patience, request: id, generation: 0)))
        }
        dispatch(slot, effects: &effects)
    }

    @usableFromInline func reserveRide(_ id: RequestID, customer: CustomerID, origin: Position, destination: Position,
                     meetingTime: Double, effects: inout [Effect]) throws(DispatchError) {
        guard knownSlot(of: id) == nil else { throw .duplicateRequest(id) }
        let zone = try city.zone(of: origin, alsoContaining: destination)
        guard meetingTime.isFinite else { throw .invalidTime(meetingTime) }
        let earliest = now + rules.reservationMinimumLead
        guard meetingTime >= earliest else { throw .reservationTooSoon(meetingTime: meetingTime, earliestAllowed: earliest) }
        // The customer waits for an allocation until the meeting time at the latest.
        _ = addRequest(RequestRecord(
            id: id, customer: customer, origin: origin, destination: destination, originZone: zone,
            requestedAt: now, meetingTime: meetingTime, status: .scheduled, patienceDeadline: meetingTime))
        let allocation = meetingTime - rules.allocationLead
        effects.append(.reservationConfirmed(id, allocationAt: allocation))
        effects.append(.wake(at: allocation, TimerID(kind: .reservationAllocation, request: id, generation: 0)))
        effects.append(.wake(at: meetingTime, TimerID(kind: .patience, request: id, generation: 0)))
    }

    private func addRequest(_ record: consuming RequestRecord) -> Int32 {
        let slot = Int32(requests.count)
        directory.add(record.id, at: slot)
        requests.append(record)
        return slot
    }

    /// D10, D11: cancel before a driver accepted; a reservation only until the cut-off.
    @usableFromInline func cancel(_ id: RequestID, by customer: CustomerID, effects: inout [Effect]) throws(DispatchError) {
        let slot = try slot(of: id)
        if slot < 0 {  // ended
            let request = ended[RequestDirectory.endedIndex(slot)]
            guard request.customer == customer else { throw .notAParty(id) }
            throw .illegalRequestTransition(id, state: request.status, command: "be cancelled")
        }
        let request = requests[Int(slot)]
        guard request.customer == customer else { throw .notAParty(id) }
        switch request.status {
        case .scheduled, .pending, .offered: break
        default: throw .illegalRequestTransition(id, state: request.status, command: "be cancelled")
        }
        if let meeting = request.meetingTime, now > meeting - rules.reservationCancelCutoff {
            throw .cancellationWindowClosed(id, closedAt: meeting - rules.reservationCancelCutoff)
        }
        let freed = withdrawOffer(of: slot, effects: &effects)
        finish(slot, as: .cancelled)
        effects.append(.requestCancelled(id))
        serveWaitingRequests(freed: freed, effects: &effects)
    }

    @usableFromInline func accept(_ driver: DriverID, _ id: RequestID, effects: inout [Effect]) throws(DispatchError) {
        let (driverSlot, slot) = try offerPair(driver, id, command: "accept")
        let s = Int(slot)  // the record is changed in place: a copy of it costs a memmove each way
        let eta = travel.travelTime(from: drivers[Int(driverSlot)].position, to: requests[s].origin, departingAt: now)
        drivers[Int(driverSlot)].status = .toPickup(id)
        requests[s].status = .accepted(driver)
        requests[s].assignmentGeneration &+= 1
        let customer = requests[s].customer
        effects.append(requests[s].everAccepted
            ? .reassigned(id, customer, driver, eta: eta)
            : .customerNotified(id, customer, driver, eta: eta))
        requests[s].everAccepted = true
        requests[s].patienceRanOut = false
        // D9: the maximum allowed delay (factor × the ETA at this hour's speed + slack) counts from
        // when the customer is due: now, or the meeting time of a reservation accepted before it.
        let deadline = max(now, requests[s].meetingTime ?? now) + rules.madFactor * eta + rules.madSlack
        requests[s].pickupDeadline = deadline
        effects.append(.wake(at: deadline, TimerID(kind: .maximumAllowedDelay, request: id,
                                                   generation: requests[s].assignmentGeneration)))
        statistics.offersAccepted += 1
    }

    /// D5: the request passes on; the decliner leaves the queue or goes to its tail.
    @usableFromInline func decline(_ driver: DriverID, _ id: RequestID, effects: inout [Effect]) throws(DispatchError) {
        let (driverSlot, slot) = try offerPair(driver, id, command: "decline")
        statistics.offersDeclined += 1
        requests[Int(slot)].excluded.append(driverSlot)
        requests[Int(slot)].status = .pending
        switch rules.onDecline {
        case .unavailable: drivers[Int(driverSlot)].status = .unavailable
        case .requeue: joinQueueTail(driverSlot)
        }
        passOn(slot, effects: &effects)
        if rules.onDecline == .requeue { serveWaitingRequests(freed: driverSlot, effects: &effects) }
    }

    /// The driver and request slots of an open offer, or the error explaining why there is none.
    private func offerPair(_ driver: DriverID, _ id: RequestID, command: String) throws(DispatchError) -> (Int32, Int32) {
        let driverSlot = try slot(of: driver)
        let slot = try slot(of: id)
        guard case .offered(let offered) = drivers[Int(driverSlot)].status else {
            throw .illegalDriverTransition(driver, state: drivers[Int(driverSlot)].status, command: command)
        }
        guard offered == id, slot >= 0, requests[Int(slot)].status == .offered(driver) else { throw .notOfferedToDriver(id, driver) }
        // D4: the offer lapsed; its timer (due, or early in a host) passes it on.
        let expiry = requests[Int(slot)].offerExpiresAt
        guard now <= expiry else { throw .offerExpired(id, driver, expiredAt: expiry) }
        return (driverSlot, slot)
    }

    @usableFromInline func pickedUp(_ driver: DriverID, _ id: RequestID, effects: inout [Effect]) throws(DispatchError) {
        let driverSlot = try slot(of: driver)
        let slot = try slot(of: id)
        guard slot >= 0, drivers[Int(driverSlot)].status == .toPickup(id) else {
            throw .illegalDriverTransition(driver, state: drivers[Int(driverSlot)].status, command: "pick up \(id)")
        }
        drivers[Int(driverSlot)].status = .onRide(id)
        drivers[Int(driverSlot)].position = requests[Int(slot)].origin
        requests[Int(slot)].status = .pickedUp(driver)
        requests[Int(slot)].pickedUpAt = now
        if rules.fare.chargeAt == .pickup {  // D13: the minimum fare at pickup
            requests[Int(slot)].charged = rules.fare.minimum
            effects.append(.fareCharged(id, driver, amount: rules.fare.minimum))
        }
    }

    @usableFromInline func droppedOff(_ driver: DriverID, _ id: RequestID, at position: Position, effects: inout [Effect]) throws(DispatchError) {
        let driverSlot = try slot(of: driver)
        let slot = try slot(of: id)
        _ = try city.zone(of: position)
        guard slot >= 0, drivers[Int(driverSlot)].status == .onRide(id) else {
            throw .illegalDriverTransition(driver, state: drivers[Int(driverSlot)].status, command: "drop off \(id)")
        }
        let s = Int(slot)  // fields read in place: a copy of the whole record costs a memmove
        let fare = rules.fare.fare(metres: travel.roadDistance(from: requests[s].origin, to: requests[s].destination),
                                   seconds: now - requests[s].pickedUpAt)
        let due = fare - requests[s].charged
        if due > 0 {
            requests[Int(slot)].charged = fare
            effects.append(.fareCharged(id, driver, amount: due))
        }
        drivers[Int(driverSlot)].status = .unavailable
        drivers[Int(driverSlot)].position = position
        finish(slot, as: .completed)
        effects.append(.rideCompleted(id, driver))
    }

    /// D13: after the ride each side may report the other, once.
    @usableFromInline func report(_ reporter: Reporter, _ id: RequestID, effects: inout [Effect]) throws(DispatchError) {
        let slot = try slot(of: id)
        let e = RequestDirectory.endedIndex(slot)
        guard slot < 0, ended[e].outcome == .completed else { throw .reportNotAllowed(id, reason: "the ride has not ended") }
        let request = ended[e]
        switch reporter {
        case .customer(let customer):
            guard customer == request.customer else { throw .notAParty(id) }
            guard !request.reportedByCustomer else { throw .reportNotAllowed(id, reason: "already reported by the customer") }
            let driverSlot = request.servedBy
            ended[e].reportedByCustomer = true
            drivers[Int(driverSlot)].badEvaluations += 1
            effects.append(.reportRecorded(id, count: drivers[Int(driverSlot)].badEvaluations))
        case .driver(let driver):
            let driverSlot = request.servedBy
            guard drivers[Int(driverSlot)].id == driver else { throw .notAParty(id) }
            guard !request.reportedByDriver else { throw .reportNotAllowed(id, reason: "already reported by the driver") }
            ended[e].reportedByDriver = true
            customerBadEvaluations[request.customer, default: 0] += 1
            effects.append(.reportRecorded(id, count: customerBadEvaluations[request.customer]!))
        }
    }

    /// Ends a request in a terminal state and frees the customer for a new one (D12). What is left to
    /// know of it moves to `ended`; its record stays a tombstone until the command is over (the
    /// command may still read it) and the next compaction drops it.
    func finish(_ slot: Int32, as status: RequestStatus) {
        let s = Int(slot)  // fields read in place: a copy of the whole record costs a memmove
        let id = requests[s].id, customer = requests[s].customer
        var servedBy: Int32 = -1
        if case .pickedUp(let driver) = requests[s].status { servedBy = knownSlot(of: driver)! }
        requests[s].status = status
        requests[s].excluded = []
        openRequestOfCustomer.strikeOff(customer, ifFiledAs: id)
        directory.move(id, to: keepEnded(customer: customer, servedBy: servedBy, status: status))
        endedSlots += 1
    }

    /// Keeps what is left to know of a request that ends (`EndedRequest`) and returns where it is filed.
    private func keepEnded(customer: CustomerID, servedBy: Int32, status: RequestStatus) -> RequestDirectory.Location {
        ended.append(EndedRequest(customer: customer, servedBy: servedBy, status: status))
        return RequestDirectory.ended(ended.count - 1)
    }
}
