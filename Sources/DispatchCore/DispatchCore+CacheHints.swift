import CacheHint

extension DispatchCore {
    /// Starts loading the records a command about `driver` and `request` will read: a cache hint for a
    /// host that knows its next command before it sends it (the simulator, from its next event).
    ///
    /// It changes nothing and returns nothing, so the core behaves exactly the same with or without it;
    /// a wrong guess (an unknown id, a driver whose id is not its slot) only wastes a load. At
    /// megacity's scale the driver's record was seldom in cache when its command came: the lookup that
    /// first reads it took 6 % of the loop thread (perf).
    ///
    /// `takesIndexSlot`: the command will put the taxi in the closest-taxi index (it turns available, or
    /// moves while available), so the index's record of it is loaded too: its first read was 2.7 % of
    /// megacity's loop thread, 0.5 % with the hint (perf, session 31).
    public func prefetchRecords(driver: DriverID, request: RequestID?, takesIndexSlot: Bool = false) {
        drivers.prefetchElement(driver.rawValue)
        if takesIndexSlot { index.prefetch(slot: driver.rawValue) }
        guard let request, let slot = directory.location(of: request), slot >= 0 else { return }
        requests.prefetchElement(Int(slot))
    }

    /// Starts loading where the core files each of `requests` (raw request ids: their directory entries), which
    /// `prefetchRecords` then reads to find a request's record: a hint for a host that knows a request's command
    /// comes a while ahead. Many at once (the simulator's, at each of its event queue's refills) cost one call
    /// and one look at the table for them all.
    public func prefetchDirectoryEntries(of requests: UnsafeBufferPointer<Int32>) { directory.prefetch(requests) }

    /// The room `reserveCapacity` made and no request uses yet, in the two tables that grow by one entry with
    /// every request (what is kept of ended requests, and the request directory), as address ranges.
    ///
    /// A host may have the kernel map those pages ahead of use, on another thread (the simulator does:
    /// `PagePopulation`); the first write to each page then costs no page fault on the host's loop. The core
    /// never reads or writes through these ranges and behaves the same whether they are populated or not.
    /// They describe the tables as they are now: once a table outgrows its room, its range is stale, and
    /// populating a stale range changes no memory's contents.
    public func unusedReservedStorage() -> [UnsafeRawBufferPointer] {
        [ended.unusedCapacity, directory.unusedCapacity].filter { $0.count > 0 }
    }
}
