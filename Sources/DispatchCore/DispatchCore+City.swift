// MARK: - The map: area and zones (D1)

extension DispatchCore {
    /// Replaces the map with `newCity`: empty queues for its zones and a closest-taxi index for its
    /// area (cell side: the side of a square of the zone area, at most 1 km). Drivers stay known, ended requests keep their
    /// history (their recorded origin zone refers to the old map).
    /// - Throws: `DispatchError.cityInUse` while a taxi is on shift or a request or reservation is
    ///   open: queues, offers and waiting customers are per zone.
    /// - Complexity: O(drivers + requests + zones).
    @usableFromInline func setCity(_ newCity: CityGeometry) throws(DispatchError) {
        if let driver = drivers.first(where: { $0.status != .offShift }) { throw .cityInUse("\(driver.id) is on shift") }
        if let request = requests.first(where: { !$0.status.isTerminal }) { throw .cityInUse("\(request.id) is open") }
        city = newCity
        queues = ZoneQueues(zoneCount: newCity.zoneCount)
        index = AvailableTaxiIndex(width: newCity.width, height: newCity.height, cellSide: newCity.defaultIndexCellSide)
        for _ in drivers.indices {
            queues.addSlot()
            index.addSlot()
        }
        waiting = []
        waitingHead = 0
        waitingInZone = Array(repeating: [], count: newCity.zoneCount)
        waitingInZoneHead = Array(repeating: 0, count: newCity.zoneCount)
    }
}
