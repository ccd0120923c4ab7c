// MARK: - Invariants (design principle 4)

extension DispatchCore {
    /// Every broken invariant, described; empty when the core is sound.
    /// Tests call it after every command; hosts may call it in debug builds.
    /// - Complexity: O(drivers + requests + zones).
    public func invariantViolations() -> [String] {
        var problems = queues.invariantViolations()
        var expectedInIndex: [Int32: Position] = [:]
        var engagedRequestOfDriver: [Int32: RequestID] = [:]
        for (slot, driver) in drivers.elements.enumerated() {
            let s = Int32(slot)
            switch driver.status {
            case .available(let zone):
                expectedInIndex[s] = driver.position
                if queues.zone(of: s) != Int32(zone.index) {
                    problems.append("\(driver.id) is available in \(zone) but queued in \(queues.zone(of: s))")
                }
                if city.unsafeZoneIndex(driver.position) != zone.index {
                    problems.append("\(driver.id) is queued in \(zone) but stands in another zone")
                }
            case .offered(let r), .toPickup(let r), .onRide(let r):
                engagedRequestOfDriver[s] = r
                fallthrough
            default:
                if queues.zone(of: s) >= 0 { problems.append("\(driver.id) is \(driver.status) yet queued") }
            }
        }
        problems += index.invariantViolations(expected: expectedInIndex)
        var engagedDriverOfRequest: [RequestID: DriverID] = [:]
        problems += archiveViolations()
        for request in requests.elements where !request.status.isTerminal {
            switch request.status {
            case .offered(let d), .accepted(let d), .pickedUp(let d):
                engagedDriverOfRequest[request.id] = d
                guard let slot = knownSlot(of: d) else { problems.append("\(request.id) names unknown \(d)"); continue }
                let expected: DriverStatus = switch request.status {
                case .offered: .offered(request.id)
                case .accepted: .toPickup(request.id)
                default: .onRide(request.id)
                }
                if drivers[Int(slot)].status != expected {
                    problems.append("\(request.id) is \(request.status) but \(d) is \(drivers[Int(slot)].status)")
                }
            default: break
            }
            let recorded = openRequestOfCustomer[request.customer] == request.id
            if !request.isReservation != recorded { problems.append("\(request.id): open-request record of \(request.customer) is wrong (D12)") }
        }
        openRequestOfCustomer.forEach { customer, id in
            if (knownSlot(of: id) ?? -1) < 0 { problems.append("\(customer)'s open request \(id) is not open (D12)") }
        }
        for (slot, request) in engagedRequestOfDriver where engagedDriverOfRequest[request] != drivers[Int(slot)].id {
            problems.append("\(drivers[Int(slot)].id) is engaged in \(request), which does not name it")
        }
        return problems + livenessViolations()
    }

    /// Ended and archived requests: the tombstone counts are right, and the directory files every open
    /// record at its slot and every ended request held at a record that is not archived, each once.
    private func archiveViolations() -> [String] {
        var problems: [String] = []
        let endedInLive = requests.count(where: { $0.status.isTerminal })
        if endedInLive != endedSlots { problems.append("\(endedInLive) ended records in the live table, \(endedSlots) counted") }
        let archived = ended.count(where: { $0.outcome == .archived })
        if archived != archivedEnded { problems.append("\(archived) archived records, \(archivedEnded) counted") }
        var filedOpen = 0, filedEnded = 0
        directory.forEach { id, slot in
            if slot >= 0 {
                filedOpen += 1
                if Int(slot) >= requests.count || requests[Int(slot)].id != id || requests[Int(slot)].status.isTerminal {
                    problems.append("\(id) is filed at slot \(slot), which holds another or an ended record")
                }
            } else {
                filedEnded += 1
                let e = RequestDirectory.endedIndex(slot)
                if e >= ended.count || ended[e].outcome == .archived { problems.append("\(id) is filed at a missing ended record") }
            }
        }
        if filedOpen != requests.count - endedSlots { problems.append("\(filedOpen) open requests filed, \(requests.count - endedSlots) held") }
        if filedEnded != ended.count - archivedEnded { problems.append("\(filedEnded) ended requests filed, \(ended.count - archivedEnded) held") }
        return problems
    }

    /// Liveness: every pending request waits somewhere it will be found — in the waiting lists
    /// (non-batch policies: also its origin zone's list) or in a batch window whose end is
    /// scheduled — and, without a batch window, never while a taxi it may be offered is free.
    private func livenessViolations() -> [String] {
        var problems: [String] = []
        let listed = Set(waiting[waitingHead...])
        var listedInZone: Set<Int32> = []
        for zone in waitingInZone.indices { listedInZone.formUnion(waitingInZone[zone][waitingInZoneHead[zone]...]) }
        for (slot, request) in requests.elements.enumerated() where request.status == .pending {
            let s = Int32(slot)
            if !request.waiting || !listed.contains(s) { problems.append("pending \(request.id) is in no waiting list") }
            if policy.batchWindow != nil {
                if batchEpochDue == nil { problems.append("pending \(request.id) waits for a batch window that is not scheduled") }
            } else {
                if !listedInZone.contains(s) { problems.append("pending \(request.id) is missing from its zone's waiting list") }
                if hasEligibleTaxi(s) { problems.append("pending \(request.id) waits while an eligible taxi is available") }
            }
        }
        return problems
    }
}
