import CCacheHint

extension DispatchCore {
    /// Starts loading the records a command about `driver` and `request` will read: a cache hint for a
    /// host that knows its next command before it sends it (the simulator, from its next event).
    ///
    /// It changes nothing and returns nothing, so the core behaves exactly the same with or without it;
    /// a wrong guess (an unknown id, a driver whose id is not its slot) only wastes a load. At
    /// megacity's scale the driver's record was seldom in cache when its command came: the lookup that
    /// first reads it took 6 % of the loop thread (perf).
    public func prefetchRecords(driver: DriverID, request: RequestID?) {
        // Through the mutable buffer: its access checks that the array is unique, where a read of a class
        // property retains and releases the buffer around the closure (5 % of the loop thread, perf).
        drivers.withUnsafeMutableBufferPointer { buffer in
            let raw = driver.rawValue
            guard raw >= 0, raw < buffer.count else { return }
            citysim_prefetch_range(buffer.baseAddress.unsafelyUnwrapped + raw, MemoryLayout<DriverRecord>.stride)
        }
        guard let request, let slot = directory.location(of: request), slot >= 0 else { return }
        requests.withUnsafeMutableBufferPointer { buffer in
            guard Int(slot) < buffer.count else { return }
            citysim_prefetch_range(buffer.baseAddress.unsafelyUnwrapped + Int(slot), MemoryLayout<RequestRecord>.stride)
        }
    }
}
