// MARK: - Offers and waiting requests: D3–D7

extension DispatchCore {
    func openRequest(_ slot: Int32) -> OpenRequest {
        let s = Int(slot)  // fields read in place: a copy of the whole record costs a memmove
        return OpenRequest(slot: slot, id: requests[s].id, origin: requests[s].origin, originZone: requests[s].originZone,
                           requestedAt: requests[s].requestedAt, excluded: requests[s].excluded)
    }

    /// Finds a taxi for a request now (or queues it for the batch window); with
    /// no taxi the customer waits out their patience or is told "no taxi" (D7).
    func dispatch(_ slot: Int32, effects: inout [Effect]) {
        requests[Int(slot)].status = .pending
        if let window = policy.batchWindow {
            // D7: a customer who will not wait for a free taxi hears "no taxi" at once when
            // there is none, not at the end of the window.
            if now >= requests[Int(slot)].patienceDeadline, !hasEligibleTaxi(slot) {
                noTaxiNow(slot, effects: &effects)
                return
            }
            wait(slot)
            scheduleBatchEpoch(window: window, effects: &effects)
            return
        }
        if let choice = policy.selectTaxi(for: openRequest(slot), in: view) {
            offer(slot, to: choice.taxi.slot, effects: &effects)
        } else {
            noTaxiNow(slot, effects: &effects)
        }
    }

    /// After an offer failed (D4, D5) the request passes to the next taxi — unless the
    /// customer's patience ran out while the offer was out: then they have gone (D7).
    func passOn(_ slot: Int32, effects: inout [Effect]) {
        if requests[Int(slot)].patienceRanOut {
            expire(slot, effects: &effects)
        } else {
            dispatch(slot, effects: &effects)
        }
    }

    /// Whether any available taxi may be offered the request.
    /// Eligible means not excluded (D4, D5, D9), so with more taxis available than the request excludes one
    /// is, without a search; otherwise the policy is asked (it returns nil exactly when none is eligible).
    func hasEligibleTaxi(_ slot: Int32) -> Bool {
        if index.count > requests[Int(slot)].excluded.count { return true }
        return index.count > 0 && policy.selectTaxi(for: openRequest(slot), in: view) != nil
    }

    /// D7 with no eligible taxi: the customer waits until their deadline (told once per
    /// deadline). Past it, a customer who had patience (or a reservation) has expired; one
    /// with zero patience is answered "no taxi" at once.
    func noTaxiNow(_ slot: Int32, effects: inout [Effect]) {
        let s = Int(slot)  // fields read in place: a copy of the whole record costs a memmove and a retain
        let deadline = requests[s].patienceDeadline
        if now < deadline {
            if requests[s].toldWaitingUntil != deadline {
                requests[s].toldWaitingUntil = deadline
                effects.append(.waitingForTaxi(requests[s].id, until: deadline))
            }
            wait(slot)
        } else if requests[s].isReservation || deadline > requests[s].requestedAt {
            expire(slot, effects: &effects)
        } else {
            finish(slot, as: .rejected)
            effects.append(.noTaxiAvailable(requests[s].id, requests[s].customer))
        }
    }

    /// D7: the customer's patience is over before a driver accepted.
    func expire(_ slot: Int32, effects: inout [Effect]) {
        finish(slot, as: .expired)
        effects.append(.requestExpired(requests[Int(slot)].id, requests[Int(slot)].customer))
    }

    func wait(_ slot: Int32) {
        guard !requests[Int(slot)].waiting else { return }
        requests[Int(slot)].waiting = true
        waiting.append(slot)
        waitingInZone[requests[Int(slot)].originZone.index].append(slot)
    }

    /// D3: offer the request to the taxi until the offer lapses (D4).
    func offer(_ slot: Int32, to taxi: Int32, effects: inout [Effect]) {
        if case .available(let zone) = drivers[Int(taxi)].status { drivers[Int(taxi)].offeredFromZone = zone.index }
        leaveQueue(taxi)
        let id = requests[Int(slot)].id
        drivers[Int(taxi)].status = .offered(id)
        requests[Int(slot)].status = .offered(drivers[Int(taxi)].id)
        requests[Int(slot)].offerGeneration &+= 1
        let expiry = now + rules.offerTimeout
        requests[Int(slot)].offerExpiresAt = expiry
        effects.append(.offer(drivers[Int(taxi)].id, id, expiresAt: expiry))
        effects.append(.wake(at: expiry, TimerID(kind: .offerTimeout, request: id,
                                                 generation: requests[Int(slot)].offerGeneration)))
        statistics.offersSent += 1
    }


    /// Takes back an open offer of the request; the driver keeps their queue place
    /// (or, having moved to another zone meanwhile, joins its tail).
    /// - Returns: the slot of the taxi set free, nil when no offer was out.
    @discardableResult
    func withdrawOffer(of slot: Int32, effects: inout [Effect]) -> Int32? {
        guard case .offered(let driver) = requests[Int(slot)].status else { return nil }
        let taxi = knownSlot(of: driver)!
        if city.unsafeZoneIndex(drivers[Int(taxi)].position) == drivers[Int(taxi)].offeredFromZone {
            rejoinQueue(taxi, stamp: queues.stamp(of: taxi))
        } else {
            joinQueueTail(taxi)  // D2: moved zone meanwhile, so the tail of the new zone
        }
        effects.append(.offerWithdrawn(driver, requests[Int(slot)].id))
        return taxi
    }

    /// Offers waiting requests to taxis that have become available. A taxi that just turned
    /// available (`freed`) first serves the longest-waiting customer of its own zone — the zone
    /// rule of D3 seen from the taxi — and only then do the remaining available taxis go to
    /// the longest-waiting customers anywhere. Serving the city-wide oldest first sent every
    /// freed taxi across an overloaded city (pickups twice as long as rides) and lowered the
    /// very capacity the customers were waiting for.
    func serveWaitingRequests(freed: Int32? = nil, effects: inout [Effect]) {
        guard policy.batchWindow == nil else { return }
        // An offer only ever takes a taxi out of the index, so once it is empty the rest of a list has
        // nothing to be offered: the loops stop there. (Filtering each entry with `where` walked the whole
        // list for nothing: in an overloaded megacity, 3 % of the loop thread with no taxi free.)
        // An empty list is left alone: slicing it retained and released its buffer, and its compaction has
        // nothing to do (a list is emptied only by a compaction, which then drops it if it was long).
        if let freed, case .available(let zone) = drivers[Int(freed)].status,
           waitingInZoneHead[zone.index] < waitingInZone[zone.index].count {
            for slot in waitingInZone[zone.index][waitingInZoneHead[zone.index]...] {
                if index.count == 0 || offerIfWaiting(slot, effects: &effects) { break }
            }
            compactWaiting(in: zone.index)
        }
        guard waitingHead < waiting.count else { return }
        for slot in waiting[waitingHead...] {
            if index.count == 0 { break }
            offerIfWaiting(slot, effects: &effects)
        }
        compactWaiting()
    }

    /// Offers a still-waiting request to the taxi the policy picks; false when it no longer
    /// waits or no eligible taxi is available.
    @discardableResult
    private func offerIfWaiting(_ slot: Int32, effects: inout [Effect]) -> Bool {
        guard requests[Int(slot)].status == .pending,
              let choice = policy.selectTaxi(for: openRequest(slot), in: view) else { return false }
        requests[Int(slot)].waiting = false
        offer(slot, to: choice.taxi.slot, effects: &effects)
        return true
    }

    /// Drops a zone list's leading entries that no longer wait; rebuilds it when mostly stale.
    private func compactWaiting(in zone: Int) {
        var head = waitingInZoneHead[zone]
        while head < waitingInZone[zone].count, requests[Int(waitingInZone[zone][head])].status != .pending { head += 1 }
        if head > 64, head * 2 > waitingInZone[zone].count {
            waitingInZone[zone].removeFirst(head)
            head = 0
        }
        waitingInZoneHead[zone] = head
    }

    /// Drops entries at the front that no longer wait; rebuilds when mostly stale.
    func compactWaiting() {
        while waitingHead < waiting.count, requests[Int(waiting[waitingHead])].status != .pending {
            requests[Int(waiting[waitingHead])].waiting = false
            waitingHead += 1
        }
        if waitingHead > 1024, waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }
}
