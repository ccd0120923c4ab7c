// MARK: - Drivers: shifts, availability, positions (D2)

extension DispatchCore {
    @usableFromInline func addDriver(_ id: DriverID, taxiCode: String) throws(DispatchError) {
        guard knownSlot(of: id) == nil else { throw .duplicateDriver(id) }
        // A driver whose ID equals its slot is found by `knownSlot` without the table.
        if id.rawValue != drivers.count { driverSlot[id] = Int32(drivers.count) }
        drivers.append(DriverRecord(id: id, taxiCode: taxiCode))
        queues.addSlot()
        index.addSlot()
    }

    @usableFromInline func startShift(_ id: DriverID, at position: Position) throws(DispatchError) {
        let slot = try slot(of: id)
        _ = try city.zone(of: position)
        guard drivers[Int(slot)].status == .offShift else {
            throw .illegalDriverTransition(id, state: drivers[Int(slot)].status, command: "start a shift")
        }
        drivers[Int(slot)].status = .unavailable
        drivers[Int(slot)].position = position
    }

    @usableFromInline func endShift(_ id: DriverID) throws(DispatchError) {
        let slot = try slot(of: id)
        switch drivers[Int(slot)].status {
        case .available: leaveQueue(slot)
        case .unavailable: break
        default: throw .illegalDriverTransition(id, state: drivers[Int(slot)].status, command: "end the shift")
        }
        drivers[Int(slot)].status = .offShift
    }

    @usableFromInline func setAvailable(_ id: DriverID, _ available: Bool, effects: inout [Effect]) throws(DispatchError) {
        let slot = try slot(of: id)
        switch (drivers[Int(slot)].status, available) {
        case (.unavailable, true):
            joinQueueTail(slot)
            serveWaitingRequests(freed: slot, effects: &effects)
        case (.available, false):
            leaveQueue(slot)
            drivers[Int(slot)].status = .unavailable
        case (.available, true), (.unavailable, false):
            break  // already so: nothing moves (a repeated toggle keeps the queue place)
        default:
            throw .illegalDriverTransition(id, state: drivers[Int(slot)].status,
                                           command: available ? "turn available" : "turn not available")
        }
    }

    @usableFromInline func updatePosition(_ id: DriverID, _ position: Position) throws(DispatchError) {
        let slot = try slot(of: id)
        let zone = try city.zone(of: position)
        drivers[Int(slot)].position = position
        guard case .available(let oldZone) = drivers[Int(slot)].status else { return }
        index.remove(slot)
        index.insert(slot, at: position)
        if zone != oldZone {  // D2: a taxi that moves zone goes to the tail of the new zone's queue
            queues.remove(slot)
            queues.enqueueAtTail(slot, zone: zone.index)
            drivers[Int(slot)].status = .available(zone)
        }
    }

    // MARK: Queue membership

    /// D2: the taxi joins the tail of the queue of the zone it is in.
    func joinQueueTail(_ slot: Int32) {
        let position = drivers[Int(slot)].position
        let zone = city.unsafeZoneIndex(position)
        queues.enqueueAtTail(slot, zone: zone)
        index.insert(slot, at: position)
        drivers[Int(slot)].status = .available(ZoneID(zone))
    }

    /// Puts a taxi back at its old place in its zone queue (its offer was
    /// withdrawn through no fault of the driver).
    func rejoinQueue(_ slot: Int32, stamp: UInt64) {
        let position = drivers[Int(slot)].position
        let zone = city.unsafeZoneIndex(position)
        queues.restore(slot, stamp: stamp, zone: zone)
        index.insert(slot, at: position)
        drivers[Int(slot)].status = .available(ZoneID(zone))
    }

    /// Takes a taxi out of its zone queue and the spatial index.
    func leaveQueue(_ slot: Int32) {
        queues.remove(slot)
        index.remove(slot)
    }
}
